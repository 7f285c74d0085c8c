#include "data/BinaryFile.hpp"
#include "data/CsvFile.hpp"
#include "data/NpyFile.hpp"
#include "data/RandomGenerator.hpp"
#include "doc/BufferFactory.hpp"
#include "support/TempDir.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace kw;

namespace {

BufferSpec spec(DType dtype, const std::string& count, Initialiser init, std::vector<std::string> shape = {})
{
    BufferSpec b;
    b.name = "b";
    b.dtype = dtype;
    b.count = count;
    b.init = std::move(init);
    b.shape = std::move(shape);
    return b;
}

Initialiser kind(Initialiser::Kind k)
{
    Initialiser i;
    i.kind = k;
    return i;
}

std::string errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
}

struct Fixture : ::testing::Test {
    VariableScope scope = VariableScope::evaluate({{"n", "12"}, {"w", "4"}, {"h", "3"}});
    // A folder of this process and case: ctest -j runs the cases as processes side by side.
    std::filesystem::path dir
        = kw::test::freshDir("kw_test_init", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    BufferFactory factory{scope, dir, Trust::Untrusted};
    void SetUp() override { std::filesystem::create_directories(dir); }
    void TearDown() override { std::filesystem::remove_all(dir); }
};

using Initialisers = Fixture;

} // namespace

TEST(Random, MatchesTheReferenceXoshiro256StarStar)
{
    // First outputs of xoshiro256** seeded by SplitMix64, from the reference algorithm.
    RandomGenerator zero(0);
    EXPECT_EQ(zero.next(), 0x99ec5f36cb75f2b4ull);
    EXPECT_EQ(zero.next(), 0xbf6e1f784956452aull);
    EXPECT_EQ(zero.next(), 0x1a5f849d4933e6e0ull);
    RandomGenerator fortyTwo(42);
    EXPECT_EQ(fortyTwo.next(), 0x15780b2e0c2ec716ull);
}

TEST_F(Initialisers, Zeros)
{
    const NdArray a = factory.create(spec(DType::F64, "n", kind(Initialiser::Kind::Zeros)), "buffers[0]");
    ASSERT_EQ(a.data.count(), 12u);
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{12}));
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(a.data.at(i), 0.0);
}

TEST_F(Initialisers, Fill)
{
    Initialiser init = kind(Initialiser::Kind::Fill);
    init.value = "n / 8";
    const NdArray a = factory.create(spec(DType::F32, "n", init), "buffers[0]");
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(a.data.at(i), 1.5);
}

TEST_F(Initialisers, Arange)
{
    Initialiser init = kind(Initialiser::Kind::Arange);
    init.start = "10";
    init.step = "-2";
    const NdArray a = factory.create(spec(DType::I32, "n", init), "buffers[0]");
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(a.data.at(i), 10.0 - 2.0 * double(i));
}

TEST_F(Initialisers, LinspaceHitsBothEnds)
{
    Initialiser init = kind(Initialiser::Kind::Linspace);
    init.start = "0";
    init.stop = "1";
    const NdArray a = factory.create(spec(DType::F64, "11", init), "buffers[0]");
    EXPECT_EQ(a.data.at(0), 0.0);
    EXPECT_EQ(a.data.at(10), 1.0);
    EXPECT_NEAR(a.data.at(3), 0.3, 1e-15);
    const NdArray one = factory.create(spec(DType::F64, "1", init), "buffers[0]");
    EXPECT_EQ(one.data.at(0), 0.0);
}

TEST_F(Initialisers, UniformIsSeededAndInRange)
{
    Initialiser init = kind(Initialiser::Kind::Uniform);
    init.low = -2;
    init.high = 3;
    init.seed = 5;
    const NdArray a = factory.create(spec(DType::F64, "100000", init), "b");
    const NdArray again = factory.create(spec(DType::F64, "100000", init), "b");
    EXPECT_EQ(a.data.bytes(), again.data.bytes());
    double sum = 0;
    for (std::size_t i = 0; i < a.data.count(); ++i) {
        const double v = a.data.at(i);
        ASSERT_GE(v, -2.0);
        ASSERT_LT(v, 3.0);
        sum += v;
    }
    EXPECT_NEAR(sum / 100000.0, 0.5, 0.03);
    // The first element is low + (high - low) * (first 53 bits / 2^53) of the generator.
    RandomGenerator rng(5);
    EXPECT_EQ(a.data.at(0), -2.0 + 5.0 * (double(rng.next() >> 11) * 0x1.0p-53));
    init.seed = 6;
    EXPECT_NE(factory.create(spec(DType::F64, "100000", init), "b").data.bytes(), a.data.bytes());
}

TEST_F(Initialisers, NormalHasTheRequestedMoments)
{
    Initialiser init = kind(Initialiser::Kind::Normal);
    init.mean = 10;
    init.stddev = 2;
    init.seed = 1;
    const NdArray a = factory.create(spec(DType::F64, "200000", init), "b");
    double sum = 0, sq = 0;
    for (std::size_t i = 0; i < a.data.count(); ++i) {
        sum += a.data.at(i);
        sq += a.data.at(i) * a.data.at(i);
    }
    const double mean = sum / 200000.0;
    const double var = sq / 200000.0 - mean * mean;
    EXPECT_NEAR(mean, 10.0, 0.03);
    EXPECT_NEAR(std::sqrt(var), 2.0, 0.03);
    init.seed = 2;
    EXPECT_NE(factory.create(spec(DType::F64, "16", init), "b").data.bytes(),
              kw::HostBytes(a.data.bytes().begin(), a.data.bytes().begin() + 16 * 8));
}

TEST_F(Initialisers, ExpressionOverAShapeWithXFastest)
{
    Initialiser init = kind(Initialiser::Kind::Expression);
    init.expression = "100*y + x + 1000*(i == 5)";
    const NdArray a = factory.create(spec(DType::I32, "w*h", init, {"h", "w"}), "buffers[0]");
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{3, 4}));
    EXPECT_EQ(a.data.at(0), 0.0);
    EXPECT_EQ(a.data.at(3), 3.0);
    EXPECT_EQ(a.data.at(4), 100.0);
    EXPECT_EQ(a.data.at(5), 1101.0);
    EXPECT_EQ(a.data.at(11), 203.0);

    init.expression = "z*100 + y*10 + x";
    const NdArray c = factory.create(spec(DType::I32, "24", init, {"2", "3", "4"}), "buffers[0]");
    EXPECT_EQ(c.data.at(23), 123.0);
    EXPECT_EQ(c.data.at(13), 101.0);
}

// Its speed is measured by tests/bench/bench_core.cpp.
TEST_F(Initialisers, ExpressionFillsAMillionElements)
{
    Initialiser init = kind(Initialiser::Kind::Expression);
    init.expression = "sin(i * 0.001) * n + (i % 7)";
    const NdArray a = factory.create(spec(DType::F32, "1<<20", init), "buffers[0]");
    ASSERT_EQ(a.data.count(), 1u << 20);
    for (std::size_t i = 0; i < a.data.count(); ++i)
        ASSERT_EQ(a.data.at(i), float(std::sin(double(i) * 0.001) * 12 + double(i % 7))) << "element " << i;
}

TEST_F(Initialisers, ExpressionErrorsNameTheField)
{
    Initialiser init = kind(Initialiser::Kind::Expression);
    init.expression = "i * k";
    EXPECT_EQ(errorOf([&] { factory.create(spec(DType::F32, "n", init), "buffers[2]"); }),
              "buffers[2].init.expr: unknown name \"k\" in \"i * k\"");
}

TEST_F(Initialisers, AFileIsCheckedAsItIsReadARawOneFromItsSizeAlone)
{
    // checkFile (the validator's) says what create says of each file, in the same words.
    HostBuffer v(DType::F32, 12);
    for (std::size_t i = 0; i < 12; ++i)
        v.set(i, double(i) - 5);
    BinaryFile::write(dir / "w.bin", v);
    NpyFile::write(dir / "w.npy", v);
    std::ofstream(dir / "odd.bin", std::ios::binary) << std::string(47, 'x');
    std::filesystem::create_directories(dir / "folder.bin");
    for (const char* file : {"w.bin", "w.npy", "odd.bin", "missing.bin", "folder.bin", "../outside.bin"})
        for (const char* count : {"12", "13", "11"}) {
            Initialiser init = kind(Initialiser::Kind::File);
            init.file = file;
            const BufferSpec s = spec(DType::F32, count, init);
            const bool fits = std::string(count) == "12" && std::string(file).rfind("w.", 0) == 0;
            if (fits) {
                EXPECT_NO_THROW(factory.checkFile(s, "buffers[1]")) << file;
                EXPECT_EQ(factory.create(s, "buffers[1]").data.bytes(), v.bytes()) << file;
                continue;
            }
            const std::string created = errorOf([&] { factory.create(s, "buffers[1]"); });
            EXPECT_EQ(errorOf([&] { factory.checkFile(s, "buffers[1]"); }), created) << file << ", count " << count;
        }
    Initialiser raw = kind(Initialiser::Kind::File);
    raw.file = "w.bin";
    EXPECT_EQ(errorOf([&] { factory.checkFile(spec(DType::F32, "13", raw), "buffers[1]"); }),
              "buffers[1].init.path: \"w.bin\" holds 12 elements, but the buffer has 13");
    raw.file = "odd.bin";
    EXPECT_NE(errorOf([&] {
                  factory.checkFile(spec(DType::F32, "12", raw), "buffers[1]");
              }).find("47 bytes is not a whole number of f32 elements"),
              std::string::npos);
}

TEST_F(Initialisers, FromNpyCsvAndRawFiles)
{
    HostBuffer values(DType::F64, 12);
    for (std::size_t i = 0; i < 12; ++i)
        values.set(i, double(i) * 0.5);
    NpyFile::write(dir / "v.npy", values, {3, 4});
    CsvFile::write(dir / "v.csv", values, {3, 4});
    HostBuffer asF32(DType::F32, 12);
    for (std::size_t i = 0; i < 12; ++i)
        asF32.set(i, values.at(i));
    BinaryFile::write(dir / "v.bin", asF32);

    for (const char* file : {"v.npy", "v.csv", "v.bin"}) {
        Initialiser init = kind(Initialiser::Kind::File);
        init.file = file;
        const NdArray a = factory.create(spec(DType::F32, "n", init), "buffers[0]");
        ASSERT_EQ(a.data.count(), 12u) << file;
        EXPECT_EQ(a.data.dtype(), DType::F32);
        for (std::size_t i = 0; i < 12; ++i)
            EXPECT_EQ(a.data.at(i), double(i) * 0.5) << file;
    }

    Initialiser init = kind(Initialiser::Kind::File);
    init.file = "v.npy";
    EXPECT_EQ(errorOf([&] { factory.create(spec(DType::F32, "13", init), "buffers[1]"); }),
              "buffers[1].init.path: \"v.npy\" holds 12 elements, but the buffer has 13");
    init.file = "v.bin";
    EXPECT_NE(errorOf([&] { factory.create(spec(DType::F64, "12", init), "buffers[1]"); }).find("holds 6 elements"),
              std::string::npos);
    init.file = "nothing.npy";
    EXPECT_NE(errorOf([&] {
                  factory.create(spec(DType::F32, "12", init), "buffers[1]");
              }).find("buffers[1].init.path: file \"nothing.npy\" not found"),
              std::string::npos);
}

TEST_F(Initialisers, ShapeMustMatchCount)
{
    EXPECT_EQ(errorOf([&] {
                  factory.shape(spec(DType::F32, "n", {}, {"w", "w"}), "buffers[0]");
              }),
              "buffers[0].shape: 4 x 4 = 16 elements, but the count is 12");
    EXPECT_EQ(errorOf([&] { factory.shape(spec(DType::F32, "n - 20", {}), "buffers[0]"); }),
              "buffers[0].count: \"n - 20\" is negative (-8)");
    EXPECT_EQ(factory.shape(spec(DType::F32, "n", {}, {"h", "w"}), "b"), (std::vector<std::size_t>{3, 4}));
}
