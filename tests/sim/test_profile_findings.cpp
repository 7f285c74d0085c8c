// Findings, figures, the text report and the JSON form on profiles the simulator
// counted: the findings follow from the numbers of textbook kernels, and a document
// run through RunEngine carries its profile into the RunResult.
#include "ProfileTestSupport.hpp"
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "run/ProfileFigures.hpp"
#include "run/ProfileFindings.hpp"
#include "run/ProfileReportText.hpp"
#include "run/RunEngine.hpp"
#include "serve/ResultJson.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace kwtest;

namespace {

std::vector<kw::ProfileFinding> findingsAt(const kw::KernelProfile& p, const std::string& source,
                                           const std::string& marker)
{
    const int line = lineOf(source, marker);
    std::vector<kw::ProfileFinding> out;
    for (const auto& f : profileFindings(p, source))
        if (f.line == line)
            out.push_back(f);
    return out;
}

} // namespace

TEST(ProfileFindings, StridedAndMisalignedLoadsSayWhy)
{
    KW_REQUIRE_NVRTC();
    struct Case {
        int stride, offset;
        const char* expect;
    };
    const Case cases[] = {
        {32, 0,
         "32 sectors per request where 4 would do: neighbouring threads read addresses 128 bytes apart, so "
         "every thread needs a sector of its own"},
        {2, 0, "8 sectors per request where 4 would do: neighbouring threads read addresses 8 bytes apart;"},
        {1, 1,
         "5 sectors per request where 4 would do: the warp reads consecutive 4-byte elements, but they do "
         "not start on a 32-byte sector boundary"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(testing::Message() << "stride " << c.stride << " offset " << c.offset);
        auto r = profiled(kStrided, "ld_strided",
                          {buffer("in", iota(256 * 32 + 1)), buffer("out", std::vector<float>(256))},
                          {bufArg(0), bufArg(1), scalar<int>(c.stride), scalar<int>(c.offset)}, {1}, {256});
        ASSERT_TRUE(r.report.profile);
        const auto f = findingsAt(*r.report.profile, kStrided, "// LOAD\n");
        ASSERT_EQ(f.size(), 1u);
        EXPECT_EQ(f[0].kind, kw::ProfileFinding::Kind::GlobalLoad);
        EXPECT_NE(f[0].text.find(c.expect), std::string::npos) << f[0].text;
    }
    // Coalesced: nothing to say.
    auto r = profiled(kStrided, "ld_strided", {buffer("in", iota(256)), buffer("out", std::vector<float>(256))},
                      {bufArg(0), bufArg(1), scalar<int>(1), scalar<int>(0)}, {1}, {256});
    ASSERT_TRUE(r.report.profile);
    EXPECT_TRUE(profileFindings(*r.report.profile, kStrided).empty());
}

TEST(ProfileFindings, ColumnReadOfAnUnpaddedTileIsA32WayConflict)
{
    KW_REQUIRE_NVRTC();
    for (int pad : {0, 1}) {
        const std::string src = transposeSource(pad);
        auto r = profiled(src, "transpose", {buffer("in", iota(1024)), buffer("out", std::vector<float>(1024))},
                          {bufArg(0), bufArg(1)}, {1}, {32, 32});
        ASSERT_TRUE(r.report.profile);
        const auto f = findingsAt(*r.report.profile, src, "// READ_TILE");
        if (pad) {
            EXPECT_TRUE(f.empty()) << f.front().text;
            continue;
        }
        ASSERT_EQ(f.size(), 1u);
        EXPECT_EQ(f[0].kind, kw::ProfileFinding::Kind::SharedLoad);
        EXPECT_EQ(f[0].text.rfind("32-way bank conflict: the warp reads a column of a 32-wide shared array", 0), 0u)
            << f[0].text;
        EXPECT_NE(f[0].text.find("pad it to 33"), std::string::npos) << f[0].text;
        // The unpadded transpose's costliest line is the column read: 32 x 32 wavefronts.
        const auto top = kw::costliestLines(*r.report.profile, 1);
        ASSERT_EQ(top.size(), 1u);
        EXPECT_EQ(top[0].line->line, lineOf(src, "// READ_TILE"));
        EXPECT_DOUBLE_EQ(top[0].figures.sharedLdWays, 32.0);
        EXPECT_DOUBLE_EQ(top[0].figures.sharedLdExcess, 32.0);
    }
}

TEST(ProfileFindings, DivergentBranchQuotesItsCondition)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void branches(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.x & 1) {               // ODD
        v = v * 3.0f;
        out[i + 512] = v;                // ODD_STORE
    }
    if (blockIdx.x & 1) {                // BLOCK
        v = v + 1.0f;
        out[i + 1024] = v;
    }
    out[i] = v;
}
)";
    auto r = profiled(src, "branches", {buffer("in", iota(512)), buffer("out", std::vector<float>(1536))},
                      {bufArg(0), bufArg(1)}, {2}, {256});
    ASSERT_TRUE(r.report.profile);
    const auto odd = findingsAt(*r.report.profile, src, "// ODD");
    ASSERT_EQ(odd.size(), 1u);
    EXPECT_EQ(odd[0].kind, kw::ProfileFinding::Kind::Divergence);
    EXPECT_EQ(odd[0].text.rfind("every warp splits here: `threadIdx.x & 1`", 0), 0u) << odd[0].text;
    EXPECT_TRUE(findingsAt(*r.report.profile, src, "// BLOCK").empty());
    // Half the lanes store inside the branch: the sectors are half used, and it says so.
    const auto store = findingsAt(*r.report.profile, src, "// ODD_STORE");
    ASSERT_EQ(store.size(), 1u);
    EXPECT_EQ(store[0].kind, kw::ProfileFinding::Kind::GlobalStore);
    EXPECT_EQ(store[0].text.rfind("4 sectors per request where 2 would do: only 16 of 32 lanes take part", 0), 0u)
        << store[0].text;
    // Every branch on the ODD line splits its warp: branch efficiency 0 there.
    for (const auto& lf : kw::costliestLines(*r.report.profile))
        if (lf.line->line == lineOf(src, "// ODD"))
            EXPECT_DOUBLE_EQ(lf.figures.branchEfficiency, 0.0);
}

TEST(ProfileFindings, LocalArraysAndContendedAtomics)
{
    KW_REQUIRE_NVRTC();
    const std::string src = R"(
extern "C" __global__ void mixed(const int* idx, float* out, int* counter) {
    volatile float a[32];
    for (int k = 0; k < 32; ++k) a[k] = k * 0.5f;           // FILL_LOCAL
    out[threadIdx.x] = a[idx[threadIdx.x]];                 // READ_LOCAL
    atomicAdd(counter, 1);                                  // ONE_ADDRESS
    atomicAdd(&counter[1 + threadIdx.x], 1);                // SPREAD
}
)";
    std::vector<int> idx(256);
    for (int i = 0; i < 256; ++i)
        idx[i] = i % 32;
    auto r = profiled(
        src, "mixed",
        {buffer("idx", idx), buffer("out", std::vector<float>(256)), buffer("counter", std::vector<int>(257))},
        {bufArg(0), bufArg(1), bufArg(2)}, {1}, {256});
    ASSERT_TRUE(r.report.profile);
    const auto& p = *r.report.profile;
    const auto fill = findingsAt(p, src, "// FILL_LOCAL");
    ASSERT_EQ(fill.size(), 1u);
    EXPECT_EQ(fill[0].kind, kw::ProfileFinding::Kind::LocalMemory);
    EXPECT_NE(fill[0].text.find("0 load and 256 store requests"), std::string::npos) << fill[0].text;
    const auto one = findingsAt(p, src, "// ONE_ADDRESS");
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].kind, kw::ProfileFinding::Kind::AtomicContention);
    EXPECT_EQ(one[0].text.rfind("32 lanes per request update the same address", 0), 0u) << one[0].text;
    EXPECT_TRUE(findingsAt(p, src, "// SPREAD").empty());
}

TEST(ProfileFindings, RunEngineCarriesTheProfileIntoTheResultAndItsJson)
{
    KW_REQUIRE_NVRTC();
    const std::filesystem::path dir = KW_SAMPLES_DIR;
    const kw::Document doc = kw::DocumentReader::readFile(dir / "matmul.kwb");
    std::ifstream in(dir / "matmul.cu");
    std::stringstream source;
    source << in.rdbuf();
    kw::Compiler compiler;
    kw::SimBackend sim;
    kw::RunEngine engine(compiler, sim);
    kw::RunOverrides o;
    o.repeats = 0;
    o.warmup = 0;
    const kw::RunResult plain = engine.run(doc, o);
    ASSERT_TRUE(plain.ok);
    EXPECT_FALSE(plain.profile);
    EXPECT_FALSE(kw::toJson(plain).contains("profile"));

    o.profile.enabled = true;
    const kw::RunResult r = engine.run(doc, o);
    ASSERT_TRUE(r.ok) << (r.fault ? r.fault->message : "");
    ASSERT_TRUE(r.profile);
    // The same output either way.
    ASSERT_EQ(r.buffers.size(), plain.buffers.size());
    for (std::size_t i = 0; i < r.buffers.size(); ++i)
        EXPECT_EQ(r.buffers[i].data.bytes(), plain.buffers[i].data.bytes()) << r.buffers[i].name;
    // The lines are matmul.cu's: the inner product's line is among the costliest.
    const int inner = lineOf(source.str(), "acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];");
    const auto top = kw::costliestLines(*r.profile, 3);
    ASSERT_FALSE(top.empty());
    EXPECT_TRUE(std::any_of(top.begin(), top.end(), [&](const kw::LineFigures& l) { return l.line->line == inner; }));
    for (const auto& l : r.profile->lines)
        EXPECT_TRUE(l.file.ends_with("matmul.cu")) << l.file;

    const std::string text = kw::profileReportText(r, source.str());
    EXPECT_NE(text.find("costliest lines"), std::string::npos) << text;
    EXPECT_NE(text.find("acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];"), std::string::npos) << text;
    if (std::getenv("KW_PRINT_PROFILE"))
        std::fputs(text.c_str(), stdout);

    const nlohmann::json j = kw::toJson(r, source.str());
    ASSERT_TRUE(j.contains("profile"));
    EXPECT_EQ(j["profile"]["lines"].size(), r.profile->lines.size());
    const kw::RunResult back = kw::runResultFromJson(nlohmann::json::parse(j.dump()));
    ASSERT_TRUE(back.profile);
    EXPECT_EQ(back.profile->totals, r.profile->totals);
    EXPECT_TRUE(back.profile->totalExtras == r.profile->totalExtras);
    ASSERT_EQ(back.profile->lines.size(), r.profile->lines.size());
    for (std::size_t i = 0; i < back.profile->lines.size(); ++i) {
        EXPECT_EQ(back.profile->lines[i].line, r.profile->lines[i].line);
        EXPECT_EQ(back.profile->lines[i].counters, r.profile->lines[i].counters);
        EXPECT_TRUE(back.profile->lines[i].extras == r.profile->lines[i].extras);
    }
}
