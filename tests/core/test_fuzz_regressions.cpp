// Inputs the fuzz targets (tests/fuzz) found, kept as unit tests of the fix.
#include "compile/DiagnosticParser.hpp"
#include "doc/Expression.hpp"
#include "sim/PtxParser.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

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

// A fuzzed kernel whose address terms overflowed a signed 64-bit offset (undefined
// behaviour, caught by UBSan); addresses now wrap modulo 2^64 as on the GPU.
TEST(FuzzRegressions, AddressTermsThatOverflowWrapInsteadOfBeingUndefined)
{
    std::ifstream in(std::string(KW_TEST_DATA_DIR) + "/../fuzz/corpus/fuzz_ptx/regression-address-overflow.ptx",
                     std::ios::binary);
    ASSERT_TRUE(in) << "the regression input is missing";
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(text.empty());
    try {
        kw::sim::parsePtx(text);
    } catch (const kw::Error&) {
        // A refusal is fine; only undefined behaviour (the sanitizer build) or a crash fails.
    }
    const auto m
        = kw::sim::parsePtx(".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                            ".reg .b64 %rd<3>;\nld.param.u64 %rd1, [p+9223372036854775807];\n"
                            "ld.param.u64 %rd2, [p+9223372036854775807+9223372036854775807];\nret;\n}\n");
    SUCCEED() << "parsed " << m.functions.size() << " functions";
}
