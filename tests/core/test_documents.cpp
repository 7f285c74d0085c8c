#include "doc/DocumentReader.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/DocumentWriter.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace kw;

namespace {

const std::filesystem::path kDocs = std::filesystem::path(KW_TEST_DATA_DIR) / "docs";

std::string loadError(const std::string& file)
{
    try {
        DocumentReader::readFile(kDocs / file);
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Document) << file << ": " << e.what();
        return e.what();
    }
    ADD_FAILURE() << file << " loaded without an error";
    return {};
}

} // namespace

TEST(Documents, GoodDocumentLoadsEveryField)
{
    const Document doc = DocumentReader::readFile(kDocs / "good_add_vectors.kwb");
    EXPECT_EQ(doc.version, 1);
    EXPECT_EQ(doc.title, "Add two vectors");
    EXPECT_EQ(doc.sourceFile, "add_vectors.cu");
    EXPECT_NE(doc.source.find("__global__ void add_vectors"), std::string::npos);
    EXPECT_EQ(doc.kernel, "add_vectors");
    ASSERT_EQ(doc.options.defines.size(), 1u);
    EXPECT_EQ(doc.options.defines[0].first, "BLOCK");
    EXPECT_EQ(doc.options.defines[0].second, "256");
    EXPECT_TRUE(doc.options.lineInfo);
    ASSERT_EQ(doc.variables.size(), 2u);
    EXPECT_EQ(doc.variables[1].first, "block");
    EXPECT_EQ(doc.variables[1].second, "256");
    ASSERT_EQ(doc.buffers.size(), 3u);
    EXPECT_EQ(doc.buffers[0].init.kind, Initialiser::Kind::Uniform);
    EXPECT_EQ(doc.buffers[0].init.low, -1.0);
    EXPECT_EQ(doc.buffers[0].init.seed, 1u);
    EXPECT_EQ(doc.buffers[0].direction, Direction::In);
    EXPECT_EQ(doc.buffers[2].direction, Direction::Out);
    EXPECT_EQ(doc.buffers[2].shape, (std::vector<std::string>{"20", "20"}));
    ASSERT_EQ(doc.args.size(), 4u);
    EXPECT_TRUE(doc.args[2].isBuffer());
    EXPECT_EQ(doc.args[3].type, DType::I32);
    EXPECT_EQ(doc.launch.grid, (std::vector<std::string>{"cdiv(n, block)", "1", "1"}));
    EXPECT_EQ(doc.run.repeats, 5);
    ASSERT_EQ(doc.checks.size(), 1u);
    EXPECT_EQ(doc.checks[0].expect, "a + b");
    EXPECT_EQ(doc.baseDir(), kDocs);
}

TEST(Documents, TemplateInstantiationMatchesTheTemplate)
{
    const Document doc = DocumentReader::readFile(kDocs / "good_template.kwb");
    EXPECT_EQ(doc.kernel, "scale<float,128>");
    const KernelSignature sig = DocumentValidator::kernelSignature(doc);
    ASSERT_EQ(sig.params.size(), 3u);
    EXPECT_EQ(sig.params[1].baseType, "float");
}

TEST(Documents, WriterRoundTrips)
{
    for (const char* file : {"good_add_vectors.kwb", "good_template.kwb"}) {
        const Document doc = DocumentReader::readFile(kDocs / file);
        const std::string text = DocumentWriter::toString(doc);
        const Document again = DocumentReader::readString(text, doc.path);
        EXPECT_EQ(DocumentWriter::toString(again), text) << file;
        EXPECT_EQ(again.source, doc.source);
        EXPECT_EQ(again.variables, doc.variables);
        EXPECT_EQ(again.launch.grid, doc.launch.grid);
        EXPECT_EQ(again.buffers.size(), doc.buffers.size());
    }
}

TEST(Documents, WriterKeepsABufferArgumentsOffset)
{
    const Document doc = DocumentReader::readFile(kDocs / "real" / "pointer_offset.kwb");
    ASSERT_EQ(doc.args.size(), 2u);
    EXPECT_EQ(doc.args[0].offset, "r");
    const Document again = DocumentReader::readString(DocumentWriter::toString(doc), doc.path);
    EXPECT_EQ(again.args[0].offset, "r");
    EXPECT_EQ(again.args[1].offset, "RADIUS");
}

TEST(Documents, WriterKeepsAReadableKeyOrder)
{
    const Document doc = DocumentReader::readFile(kDocs / "good_add_vectors.kwb");
    const std::string text = DocumentWriter::toString(doc);
    const auto at = [&](const char* key) { return text.find(std::string("\"") + key + "\""); };
    EXPECT_LT(at("format"), at("version"));
    EXPECT_LT(at("version"), at("source_file"));
    EXPECT_LT(at("source_file"), at("kernel"));
    EXPECT_LT(at("kernel"), at("variables"));
    EXPECT_LT(at("variables"), at("buffers"));
    EXPECT_LT(at("buffers"), at("args"));
    EXPECT_LT(at("args"), at("launch"));
    EXPECT_LT(at("launch"), at("checks"));
    EXPECT_NE(text.find("\n  \"kernel\": \"add_vectors\""), std::string::npos) << text;
}

TEST(Documents, WriteFileThenReadFile)
{
    Document doc = DocumentReader::readFile(kDocs / "good_template.kwb");
    const auto dir = std::filesystem::temp_directory_path() / "kw_test_documents";
    std::filesystem::create_directories(dir);
    doc.title = "Changed";
    DocumentWriter::writeFile(doc, dir / "t.kwb");
    const Document back = DocumentReader::readFile(dir / "t.kwb");
    EXPECT_EQ(back.title, "Changed");
    EXPECT_EQ(back.source, doc.source);
    EXPECT_FALSE(std::filesystem::exists(dir / "t.kwb.tmp"));
    std::filesystem::remove_all(dir);
}

struct BadCase {
    const char* file;
    std::vector<const char*> expected; // substrings of the one message
};

class BadDocuments : public ::testing::TestWithParam<BadCase> { };

TEST_P(BadDocuments, FailWithOneMessageNamingTheField)
{
    const BadCase& c = GetParam();
    const std::string message = loadError(c.file);
    for (const char* part : c.expected)
        EXPECT_NE(message.find(part), std::string::npos)
            << c.file << ": \"" << message << "\" lacks \"" << part << "\"";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Documents, BadDocuments,
    ::testing::Values(
        BadCase{"bad_unknown_key.kwb", {"kernal: unknown key"}}, BadCase{"bad_version.kwb", {"version: 3 is newer"}},
        BadCase{"bad_format.kwb", {"format: \"something-else\""}},
        BadCase{"bad_missing_source.kwb", {"source: missing"}},
        BadCase{"bad_missing_source_file.kwb", {"source_file: file \"nope.cu\" not found", "nope.cu"}},
        BadCase{"bad_unknown_kernel.kwb",
                {"kernel: \"add\" is not a __global__ function of the source (found: add_vectors)"}},
        BadCase{"bad_arg_count.kwb", {"args: the kernel add_vectors has 4 parameters", "the document gives 3"}},
        BadCase{"bad_arg_buffer.kwb", {"args[1] (b).buffer: no buffer named \"q\""}},
        BadCase{"bad_dtype.kwb", {"buffers[0].dtype: \"float33\" is not a dtype"}},
        BadCase{"bad_count_not_integer.kwb", {"buffers[1].count: \"n/3\" is not an integer (133.333)"}},
        BadCase{"bad_shape.kwb", {"buffers[2].shape: 20 x 30 = 600 elements, but the count is 400"}},
        BadCase{"bad_direction.kwb", {"buffers[2].direction: \"output\" is not one of in, out, inout"}},
        BadCase{"bad_negative_count.kwb", {"buffers[0].count: \"n-500\" is negative (-100)"}},
        BadCase{"bad_duplicate_buffer.kwb", {"buffers[1].name: \"a\" is already used by buffers[0]"}},
        BadCase{"bad_init_kind.kwb", {"buffers[0].init.kind: \"gauss\" is not one of"}},
        BadCase{"bad_init_unknown_param.kwb", {"buffers[0].init.valeu: unknown key"}},
        BadCase{"bad_init_file_missing.kwb", {"buffers[0].init.path: file \"missing.npy\" not found"}},
        BadCase{"bad_init_file_count.kwb",
                {"buffers[0].init.path: \"three_by_two.csv\" holds 6 elements, but the buffer has 400"}},
        BadCase{"bad_launch_block.kwb", {"launch.block[0]: \"0\" must be a positive integer (0)"}},
        BadCase{"bad_launch_not_integer.kwb",
                {"launch.grid[0]: \"(n + block - 1) / block\" is not an integer (2.55859)"}},
        BadCase{"bad_launch_dims.kwb", {"launch.grid: needs 1 to 3 expressions, has 4"}},
        BadCase{"bad_unknown_variable.kwb", {"variables[2] (m): unknown name \"q\" in \"2*q\""}},
        BadCase{"bad_scalar_type.kwb", {"args[3] (n).type: i64 does not match parameter \"int n\" (i32)"}},
        BadCase{"bad_scalar_for_pointer.kwb", {"args[0] (a): parameter \"const float * a\" is a pointer"}},
        BadCase{"bad_buffer_for_scalar.kwb", {"args[3] (n): parameter \"int n\" is not a pointer"}},
        BadCase{"bad_scalar_range.kwb", {"args[3] (n).value: 1099511627776 is out of range for i32"}},
        BadCase{"bad_check_expression.kwb", {"checks[0].expect: unknown name \"q\" in \"a + q\""}},
        BadCase{"bad_check_buffer.kwb", {"checks[0].buffer: no buffer named \"d\""}},
        BadCase{"bad_json.kwb", {"not valid JSON at line 5"}}),
    [](const ::testing::TestParamInfo<BadCase>& info) {
        std::string name = std::filesystem::path(info.param.file).stem().string();
        for (char& ch : name)
            if (!std::isalnum(static_cast<unsigned char>(ch)))
                ch = '_';
        return name;
    });

TEST(Documents, ReadStringWithoutPathResolvesNothingRelative)
{
    const std::string json = R"({"format": "kernel-workbench", "version": 1, "source_file": "k.cu",
        "kernel": "k", "args": [], "launch": {"grid": 1, "block": 1}})";
    try {
        DocumentReader::readString(json);
        FAIL() << "loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("source_file: file \"k.cu\" not found"), std::string::npos) << e.what();
    }
}

TEST(Documents, InlineSourceAndDefaults)
{
    const std::string json = R"({"format": "kernel-workbench", "version": 1,
        "source": "__global__ void k() {}", "kernel": "k", "args": [], "launch": {"grid": 2, "block": [32, 4]}})";
    const Document doc = DocumentReader::readString(json);
    EXPECT_EQ(doc.launch.grid, (std::vector<std::string>{"2", "1", "1"}));
    EXPECT_EQ(doc.launch.block, (std::vector<std::string>{"32", "4", "1"}));
    EXPECT_EQ(doc.launch.sharedBytes, "0");
    EXPECT_EQ(doc.run.warmup, RunSettings{}.warmup);
    EXPECT_TRUE(doc.buffers.empty());
}

TEST(Documents, KernelWithVoidParameterList)
{
    const std::string json = R"({"format": "kernel-workbench", "version": 1,
        "source": "#include <cstdio>\n__global__ void hello_from_gpu(void) { printf(\"hi\\n\"); }",
        "kernel": "hello_from_gpu", "args": [], "launch": {"grid": 1, "block": [3, 4, 5]}})";
    const Document doc = DocumentReader::readString(json);
    EXPECT_EQ(doc.launch.block, (std::vector<std::string>{"3", "4", "5"}));
}

TEST(Documents, ParseChecksOnlyTheJsonShape)
{
    // An editor must be able to open a document whose kernel was renamed in the source.
    const std::string text = R"({"format": "kernel-workbench", "version": 1,
        "source": "__global__ void renamed() {}", "kernel": "old", "args": [], "launch": {"grid": 1, "block": 1}})";
    const Document doc = DocumentReader::parse(text);
    EXPECT_EQ(doc.kernel, "old");
    EXPECT_THROW(DocumentReader::readString(text), Error);
    EXPECT_THROW(DocumentReader::parse(R"({"format": "kernel-workbench", "version": 1, "kernel": 3})"), Error);
}

TEST(Documents, RunL2FlushIsAutoUnlessSetAndIsWrittenOnlyWhenSet)
{
    const auto withRun = [](const std::string& run) {
        return R"({"format": "kernel-workbench", "version": 1, "source": "__global__ void k() {}", "kernel": "k",
            "args": [], "launch": {"grid": 1, "block": 32})"
            + (run.empty() ? std::string() : ", \"run\": " + run) + "}";
    };
    const Document plain = DocumentReader::readString(withRun(""));
    EXPECT_EQ(plain.run.l2Flush, L2Flush::Auto);
    EXPECT_EQ(DocumentWriter::toString(plain).find("l2_flush"), std::string::npos);
    EXPECT_EQ(DocumentReader::readString(withRun(R"({"l2_flush": "auto"})")).run.l2Flush, L2Flush::Auto);

    for (const bool on : {true, false}) {
        const Document d
            = DocumentReader::readString(withRun(std::string(R"({"l2_flush": )") + (on ? "true" : "false") + "}"));
        EXPECT_EQ(d.run.l2Flush, on ? L2Flush::On : L2Flush::Off);
        const std::string written = DocumentWriter::toString(d);
        EXPECT_NE(written.find(std::string("\"l2_flush\": ") + (on ? "true" : "false")), std::string::npos) << written;
        EXPECT_EQ(DocumentReader::readString(written).run.l2Flush, d.run.l2Flush);
    }
    for (const char* wrong : {R"({"l2_flush": "yes"})", R"({"l2_flush": 1})"}) {
        try {
            DocumentReader::readString(withRun(wrong));
            ADD_FAILURE() << wrong << " was read";
        } catch (const kw::Error& e) {
            EXPECT_NE(std::string(e.what()).find("run.l2_flush"), std::string::npos) << e.what();
        }
    }
}
