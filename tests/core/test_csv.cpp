#include "data/CsvFile.hpp"
#include "data/HalfFloat.hpp"
#include "util/Error.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace kw;

TEST(Csv, SeparatorsCommentsAndShape)
{
    const NdArray a = CsvFile::parse("# x, y, z\n1, 2, 3\n4\t5 6\r\n\n", DType::F32, "t.csv");
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
    ASSERT_EQ(a.data.count(), 6u);
    for (std::size_t i = 0; i < 6; ++i)
        EXPECT_EQ(a.data.at(i), double(i + 1));
}

TEST(Csv, RaggedOrSingleColumnIsOneDimensional)
{
    EXPECT_EQ(CsvFile::parse("1,2,3\n4,5\n", DType::I32, "t").shape, (std::vector<std::size_t>{5}));
    EXPECT_EQ(CsvFile::parse("1\n2\n3\n", DType::I32, "t").shape, (std::vector<std::size_t>{3}));
    EXPECT_EQ(CsvFile::parse("1 2 3 4", DType::I32, "t").shape, (std::vector<std::size_t>{4}));
    const NdArray special = CsvFile::parse("-1.5e3, nan, inf", DType::F64, "t");
    EXPECT_EQ(special.data.at(0), -1500.0);
    EXPECT_TRUE(std::isnan(special.data.at(1)));
    EXPECT_TRUE(std::isinf(special.data.at(2)));
}

TEST(Csv, BadNumberNamesFileAndLine)
{
    try {
        CsvFile::parse("1,2\n3,abc\n", DType::F32, "data.csv");
        FAIL();
    } catch (const Error& e) {
        // The position, never the file's text (a document may name another's file).
        EXPECT_EQ(std::string(e.what()), "data.csv:2: value 2 is not a number");
    }
}

TEST(Csv, WritesOneRowPerLine)
{
    HostBuffer b(DType::I32, 6);
    for (std::size_t i = 0; i < 6; ++i)
        b.set(i, double(i) - 2);
    EXPECT_EQ(CsvFile::format(b, {2, 3}), "-2,-1,0\n1,2,3\n");
    EXPECT_EQ(CsvFile::format(b), "-2\n-1\n0\n1\n2\n3\n");
}

TEST(Csv, FloatsRoundTripExactly)
{
    const auto dir = kw::test::freshDir("kw_test_csv", "files");
    std::filesystem::create_directories(dir);
    for (DType t : {DType::F16, DType::BF16, DType::F32, DType::F64, DType::U64}) {
        HostBuffer b(t, 8);
        for (std::size_t i = 0; i < 8; ++i)
            b.set(i, t == DType::U64 ? 18446744073709549568.0 - double(i) * 4096 : std::sqrt(double(i) + 0.1) * 1e3);
        CsvFile::write(dir / "v.csv", b, {4, 2});
        const NdArray back = CsvFile::read(dir / "v.csv", t);
        EXPECT_EQ(back.shape, (std::vector<std::size_t>{4, 2}));
        EXPECT_EQ(back.data.bytes(), b.bytes()) << toString(t);
    }
    std::filesystem::remove_all(dir);
}
