// Inputs the fuzz targets (tests/fuzz) found, kept as unit tests of the fix.
#include "compile/DiagnosticParser.hpp"
#include "doc/Expression.hpp"
#include "sim/PtxParser.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <cmath>

TEST(FuzzRegressions, ShiftByAHugeCountIsZeroOrInfinityNotUndefined)
{
    kw::Expression right("1024 >> 822222222222222222", "f");
    EXPECT_EQ(right.evaluate(), 0.0);
    kw::Expression left("1 << 1e300", "f");
    EXPECT_TRUE(std::isinf(left.evaluate()));
}

TEST(FuzzRegressions, ALineNumberTooLongForAnIntIsNotALocation)
{
    const auto d = kw::parseNvrtcLog("kernel.cu(99999999999999999999): error: something\n");
    for (const auto& x : d)
        EXPECT_NE(x.file, "kernel.cu") << x.line;
}

TEST(FuzzRegressions, AnUnterminatedParameterListIsAParseError)
{
    try {
        kw::sim::parsePtx(".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(\n.param .u64 a");
        FAIL() << "parsed";
    } catch (const kw::Error& e) {
        EXPECT_NE(std::string(e.what()).find("unterminated parameter list"), std::string::npos) << e.what();
    }
}
