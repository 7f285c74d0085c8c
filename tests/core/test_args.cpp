#include "data/HalfFloat.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "doc/PreparedRun.hpp"
#include "doc/ScalarPacker.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

using namespace kw;

namespace {

template <typename T> T unpack(const std::vector<std::byte>& bytes)
{
    EXPECT_EQ(bytes.size(), sizeof(T));
    T v{};
    std::memcpy(&v, bytes.data(), sizeof(T));
    return v;
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

} // namespace

TEST(ScalarArgs, PackEveryType)
{
    EXPECT_EQ(unpack<std::int8_t>(packScalar(DType::I8, -128, "a")), -128);
    EXPECT_EQ(unpack<std::uint8_t>(packScalar(DType::U8, 255, "a")), 255);
    EXPECT_EQ(unpack<std::int16_t>(packScalar(DType::I16, -300, "a")), -300);
    EXPECT_EQ(unpack<std::uint16_t>(packScalar(DType::U16, 65535, "a")), 65535);
    EXPECT_EQ(unpack<std::int32_t>(packScalar(DType::I32, 1 << 20, "a")), 1 << 20);
    EXPECT_EQ(unpack<std::uint32_t>(packScalar(DType::U32, 4294967295.0, "a")), 4294967295u);
    EXPECT_EQ(unpack<std::int64_t>(packScalar(DType::I64, -1099511627776.0, "a")), -1099511627776ll);
    EXPECT_EQ(unpack<std::uint64_t>(packScalar(DType::U64, 9007199254740992.0, "a")), 9007199254740992ull);
    EXPECT_EQ(unpack<float>(packScalar(DType::F32, 0.1, "a")), 0.1f);
    EXPECT_EQ(unpack<double>(packScalar(DType::F64, 0.1, "a")), 0.1);
    EXPECT_EQ(unpack<std::uint16_t>(packScalar(DType::F16, 1.0, "a")), 0x3c00);
    EXPECT_EQ(unpack<std::uint16_t>(packScalar(DType::F16, 0.1, "a")), halfFromDouble(0.1));
    EXPECT_EQ(unpack<std::uint16_t>(packScalar(DType::BF16, -1.0, "a")), 0xbf80);
}

TEST(ScalarArgs, RangeAndIntegerErrorsNameTheArgument)
{
    EXPECT_EQ(errorOf([] { packScalar(DType::I8, 300, "args[2] (n)"); }),
              "args[2] (n): 300 is out of range for i8 (-128..127)");
    EXPECT_EQ(errorOf([] { packScalar(DType::U32, -1, "args[0] (k)"); }),
              "args[0] (k): -1 is out of range for u32 (0..4294967295)");
    EXPECT_EQ(errorOf([] { packScalar(DType::I32, 2.5, "args[1] (n)"); }),
              "args[1] (n): 2.5 is not an integer, the type is i32");
    EXPECT_NE(errorOf([] { packScalar(DType::I64, 9223372036854775808.0, "a"); }).find("out of range for i64"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  packScalar(DType::F16, 70000, "args[1] (h)");
              }).find("args[1] (h): 70000 is out of range for f16"),
              std::string::npos);
}

TEST(Launch, EvaluatesDimsAndSharedBytes)
{
    const VariableScope scope = VariableScope::evaluate({{"n", "1<<20"}, {"block", "256"}});
    LaunchSpecText text;
    text.grid = {"cdiv(n, block)", "2", "1"};
    text.block = {"block", "1", "1"};
    text.sharedBytes = "block * 4";
    const LaunchDims d = evaluateLaunch(text, scope);
    EXPECT_EQ(d.grid.x, 4096u);
    EXPECT_EQ(d.grid.y, 2u);
    EXPECT_EQ(d.grid.z, 1u);
    EXPECT_EQ(d.block.x, 256u);
    EXPECT_EQ(d.sharedBytes, 1024u);
}

TEST(Launch, BadDimsNameTheField)
{
    const VariableScope scope = VariableScope::evaluate({{"n", "400"}});
    LaunchSpecText text;
    text.grid = {"n / 256"};
    EXPECT_EQ(errorOf([&] { evaluateLaunch(text, scope); }),
              "launch.grid[0]: \"n / 256\" is not an integer (1.5625); / divides exactly here: use cdiv(a, b) to "
              "round up or floor(a / b) to round down");
    text.grid = {"1", "-2"};
    EXPECT_EQ(errorOf([&] { evaluateLaunch(text, scope); }), "launch.grid[1]: \"-2\" must be a positive integer (-2)");
    text.grid = {"1"};
    text.block = {"1<<33"};
    EXPECT_NE(errorOf([&] { evaluateLaunch(text, scope); }).find("launch.block[0]: \"1<<33\" is too large"),
              std::string::npos);
    text.block = {"1"};
    text.sharedBytes = "-1";
    EXPECT_NE(errorOf([&] { evaluateLaunch(text, scope); }).find("launch.shared_bytes"), std::string::npos);
}

TEST(PreparedRunArgs, BuffersArgsAndConfigFromADocument)
{
    const auto docs = std::filesystem::path(KW_TEST_DATA_DIR) / "docs";
    const Document doc = DocumentReader::readFile(docs / "good_add_vectors.kwb");
    const PreparedRun run = PreparedRun::fromDocument(doc);
    ASSERT_EQ(run.buffers.size(), 3u);
    EXPECT_EQ(run.buffers[0].name, "a");
    EXPECT_EQ(run.buffers[0].direction, Direction::In);
    EXPECT_EQ(run.buffers[0].data.count(), 400u);
    EXPECT_EQ(run.shapes[2], (std::vector<std::size_t>{20, 20}));
    ASSERT_EQ(run.args.size(), 4u);
    EXPECT_TRUE(run.args[1].isBuffer);
    EXPECT_EQ(run.args[1].buffer, 1u);
    EXPECT_FALSE(run.args[3].isBuffer);
    EXPECT_EQ(unpack<std::int32_t>(run.args[3].bytes), 400);
    EXPECT_EQ(run.config.grid.x, 2u);
    EXPECT_EQ(run.config.block.x, 256u);
    EXPECT_EQ(run.config.repeats, 5);
    EXPECT_EQ(run.checkScope.value("n"), 400.0);
    // Random buffers are the same on every preparation.
    EXPECT_EQ(PreparedRun::fromDocument(doc).buffers[1].data.bytes(), run.buffers[1].data.bytes());
}

TEST(PreparedRunArgs, ScalarArgumentsJoinTheCheckScope)
{
    const auto docs = std::filesystem::path(KW_TEST_DATA_DIR) / "docs";
    const Document doc = DocumentReader::readFile(docs / "good_template.kwb");
    const PreparedRun run = PreparedRun::fromDocument(doc);
    EXPECT_EQ(unpack<float>(run.args[1].bytes), 2.5f);
    EXPECT_EQ(run.checkScope.value("factor"), 2.5);
    EXPECT_FALSE(run.variables.contains("factor"));
}
