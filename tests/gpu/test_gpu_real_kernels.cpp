// The documents of tests/data/docs/real on the GPU: module globals through
// cuModuleGetGlobal, whole .cu files, the C headers, special registers, spin waits,
// aggregate checks, reference buffers and vector types.
#include "gpu/GpuTestSupport.hpp"
#include "support/TempDir.hpp"

#include <algorithm>

using namespace kwtest;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
const fs::path kRealDir = fs::path(KW_TEST_DATA_DIR) / "docs" / "real";
}

TEST(GpuRealKernels, EveryDocumentRunsOnTheGpuAndItsChecksPass)
{
    KW_REQUIRE_GPU();
    std::vector<fs::path> docs;
    for (const auto& e : fs::directory_iterator(kRealDir))
        if (e.path().extension() == ".kwb")
            docs.push_back(e.path());
    std::sort(docs.begin(), docs.end());
    ASSERT_GE(docs.size(), 8u);
    for (const auto& doc : docs) {
        SCOPED_TRACE(doc.filename().string());
        auto r = runKwb({"run", doc.string(), "--device", "cuda:0", "--json"});
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        if (r.out.empty())
            continue;
        const json j = json::parse(r.out);
        EXPECT_TRUE(j["ok"].get<bool>()) << j.dump(2);
        for (const auto& c : j["checks"])
            EXPECT_TRUE(c["passed"].get<bool>()) << c.dump();
    }
}

TEST(GpuRealKernels, AGlobalOfTheWrongSizeIsRefusedOnTheGpuToo)
{
    KW_REQUIRE_GPU();
    std::ifstream in(kRealDir / "constant_filter.kwb");
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    text.replace(text.find("\"count\": 5,"), 11, "\"count\": 6,");
    const fs::path p = kw::test::freshDir("kw_gpu_real", "global_size") / "global_size.kwb";
    std::ofstream(p) << text;
    auto r = runKwb({"run", p.string(), "--device", "cuda:0"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("global 'taps': the variable is 20 bytes but the document gives 24 bytes"), std::string::npos)
        << r.err;
}

TEST(GpuRealKernels, CompileEmitCubinWritesAnElfImage)
{
    KW_REQUIRE_GPU();
    auto r = runKwb({"compile", (kRealDir / "constant_filter.kwb").string(), "--emit", "cubin", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["cubin_hex"].get<std::string>().substr(0, 8), "7f454c46"); // "\x7f" "ELF"
}
