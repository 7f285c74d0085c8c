// The profile's derived figures, findings, text report and JSON form on profiles
// written by hand (the simulator's own counts are tested in tests/sim).
#include "run/ProfileFigures.hpp"
#include "run/ProfileFindings.hpp"
#include "run/ProfileReportText.hpp"
#include "serve/ResultJson.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace kw;
using nlohmann::json;

namespace {

const char* kSource = "__global__ void k(float* a, const float* b) {\n" // 1
                      "    __shared__ float t[32][32];\n"               // 2
                      "    float v = b[threadIdx.x * 32];\n"            // 3
                      "    if (threadIdx.x & 1) {   // odd lanes\n"     // 4
                      "        v = t[threadIdx.x][0];\n"                // 5
                      "    }\n"                                         // 6
                      "    a[threadIdx.x] = v;\n"                       // 7
                      "}\n";

// One warp of a hand-made kernel: line 3 a load with lanes 128 bytes apart, line 4 a
// branch that splits the warp, line 5 a column read of a 32 x 32 float tile, line 7 a
// coalesced store.
KernelProfile handMade()
{
    KernelProfile p;
    LineProfile ld{"/tmp/k.cu", 3, {}, {}};
    ld.counters.inst_executed = 4;
    ld.counters.thread_inst_executed = 128;
    ld.counters.global_ld_requests = 1;
    ld.counters.global_ld_sectors = 32;
    ld.extras.global_ld_ideal_sectors = 4;
    ld.extras.global_ld_stride_bytes = 128;
    ld.extras.global_stride_bytes = 128;
    ld.extras.global_ld_bytes = 4;
    ld.extras.global_ld_lanes = 32;
    LineProfile br{"/tmp/k.cu", 4, {}, {}};
    br.counters.inst_executed = 10;
    br.counters.thread_inst_executed = 320;
    br.counters.divergent_branches = 1;
    br.extras.branches = 1;
    LineProfile sh{"/tmp/k.cu", 5, {}, {}};
    sh.counters.inst_executed = 2;
    sh.counters.thread_inst_executed = 32;
    sh.counters.shared_ld_requests = 1;
    sh.counters.shared_ld_wavefronts = 16;
    sh.extras.shared_ld_ideal_wavefronts = 1;
    sh.extras.shared_ideal_wavefronts = 1;
    sh.extras.worst_bank_conflict = 16;
    sh.extras.shared_ld_stride_bytes = 256; // two rows apart: lanes 0..15 of the odd lanes
    sh.extras.shared_bytes = 4;
    LineProfile st{"/tmp/k.cu", 7, {}, {}};
    st.counters.inst_executed = 3;
    st.counters.thread_inst_executed = 96;
    st.counters.global_st_requests = 1;
    st.counters.global_st_sectors = 4;
    st.extras.global_st_ideal_sectors = 4;
    st.extras.global_st_stride_bytes = 4;
    st.extras.global_st_bytes = 4;
    st.extras.global_st_lanes = 32;
    for (LineProfile* l : {&ld, &br, &sh, &st}) {
        p.totals += l->counters;
        p.totalExtras += l->extras;
        p.lines.push_back(*l);
    }
    AccessSample s;
    s.space = AccessSample::Space::Shared;
    s.instruction = "ld.shared.f32 %f1, [%r3];";
    for (int l = 1; l < 32; l += 2)
        s.lanes[l] = {true, std::uint64_t(l) * 128, 4};
    p.samples.push_back(s);
    return p;
}

const std::set<std::string> kCounterNames = {
    "inst_executed",        "thread_inst_executed", "divergent_branches", "global_ld_requests",   "global_ld_sectors",
    "global_st_requests",   "global_st_sectors",    "shared_ld_requests", "shared_ld_wavefronts", "shared_st_requests",
    "shared_st_wavefronts", "local_ld_requests",    "local_st_requests",  "atomic_requests"};

} // namespace

TEST(ProfileFigures, RatiosAndCost)
{
    const KernelProfile p = handMade();
    const ProfileFigures k = kernelFigures(p);
    EXPECT_DOUBLE_EQ(k.ldSectorsPerRequest, 32.0);
    EXPECT_DOUBLE_EQ(k.ldIdealSectorsPerRequest, 4.0);
    EXPECT_DOUBLE_EQ(k.ldExcess, 8.0);
    EXPECT_DOUBLE_EQ(k.stSectorsPerRequest, 4.0);
    EXPECT_DOUBLE_EQ(k.stExcess, 1.0);
    EXPECT_DOUBLE_EQ(k.sharedLdWays, 16.0);
    EXPECT_DOUBLE_EQ(k.sharedLdExcess, 16.0);
    EXPECT_EQ(k.bankConflicts, 15u);
    EXPECT_EQ(k.excessWavefronts, 15u);
    EXPECT_DOUBLE_EQ(k.branchEfficiency, 0.0);
    EXPECT_DOUBLE_EQ(k.activeLanes, 576.0 / 19.0);
    // cost = inst + 4 wavefronts + 8 sectors: 19 + 4 * 16 + 8 * 36 = 371
    EXPECT_DOUBLE_EQ(k.cost, 19.0 + 64.0 + 288.0);
    EXPECT_DOUBLE_EQ(k.costShare, 1.0);

    const auto lines = costliestLines(p);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0].line->line, 3); // 4 + 8 * 32 = 260
    EXPECT_EQ(lines[1].line->line, 5); // 2 + 4 * 16 = 66
    EXPECT_EQ(lines[2].line->line, 7); // 3 + 8 * 4 = 35
    EXPECT_EQ(lines[3].line->line, 4); // 10
    EXPECT_DOUBLE_EQ(lines[0].figures.costShare, 260.0 / 371.0);
    EXPECT_EQ(costliestLines(p, 2).size(), 2u);
    // No branches: efficiency 1; no requests: per-request figures 0, excess 1.
    const ProfileFigures none = figuresOf({}, {});
    EXPECT_DOUBLE_EQ(none.branchEfficiency, 1.0);
    EXPECT_DOUBLE_EQ(none.ldSectorsPerRequest, 0.0);
    EXPECT_DOUBLE_EQ(none.ldExcess, 1.0);
}

TEST(ProfileFindings, DerivedFromTheNumbers)
{
    const auto findings = profileFindings(handMade(), kSource);
    ASSERT_EQ(findings.size(), 3u);
    EXPECT_EQ(findings[0].line, 3);
    EXPECT_EQ(findings[0].kind, ProfileFinding::Kind::GlobalLoad);
    EXPECT_EQ(findings[0].text.rfind("32 sectors per request where 4 would do: neighbouring threads read addresses "
                                     "128 bytes apart",
                                     0),
              0u)
        << findings[0].text;
    EXPECT_EQ(findings[1].line, 5);
    EXPECT_EQ(findings[1].kind, ProfileFinding::Kind::SharedLoad);
    EXPECT_EQ(findings[1].text.rfind("16-way bank conflict: the warp reads a column of a 64-wide shared array", 0), 0u)
        << findings[1].text;
    EXPECT_NE(findings[1].text.find("pad it to 65"), std::string::npos) << findings[1].text;
    EXPECT_EQ(findings[2].line, 4);
    EXPECT_EQ(findings[2].kind, ProfileFinding::Kind::Divergence);
    EXPECT_EQ(findings[2].text, "every warp splits here: `threadIdx.x & 1`");
    // Without the source nothing is quoted; the numbers still speak.
    const auto bare = profileFindings(handMade(), "");
    ASSERT_EQ(bare.size(), 3u);
    EXPECT_EQ(bare[2].text, "every warp splits here");
    // Other strides say other things: an even word step, a misaligned contiguous warp.
    KernelProfile p = handMade();
    p.lines[2].extras.shared_ld_stride_bytes = 8;
    p.lines[2].extras.worst_bank_conflict = 2;
    p.lines[2].counters.shared_ld_wavefronts = 2;
    p.lines[0].counters.global_ld_sectors = 5;
    p.lines[0].extras.global_ld_stride_bytes = 4;
    const auto other = profileFindings(p, kSource);
    ASSERT_GE(other.size(), 2u);
    EXPECT_EQ(other[0].text.rfind("5 sectors per request where 4 would do: the warp reads consecutive 4-byte "
                                  "elements, but they do not start on a 32-byte sector boundary",
                                  0),
              0u)
        << other[0].text;
    bool sharedSeen = false;
    for (const auto& f : other)
        if (f.kind == ProfileFinding::Kind::SharedLoad) {
            sharedSeen = true;
            EXPECT_EQ(f.text.rfind("2-way bank conflict: neighbouring threads read shared addresses 8 bytes (2 words) "
                                   "apart, an even number of words, and lanes 16 apart meet in one bank",
                                   0),
                      0u)
                << f.text;
        }
    EXPECT_TRUE(sharedSeen);
}

TEST(ProfileFindings, BranchConditionsFromSourceLines)
{
    EXPECT_EQ(branchCondition("    if (threadIdx.x & 1) {   // odd"), "threadIdx.x & 1");
    EXPECT_EQ(branchCondition("} else if ((i % 3) == 0 && ok(i)) x = 1;"), "(i % 3) == 0 && ok(i)");
    EXPECT_EQ(branchCondition("    for (int k = 0; k < n; ++k)"), "k < n");
    EXPECT_EQ(branchCondition("    while (it < maxit && zr * zr + zi * zi < 4.0f) {"),
              "it < maxit && zr * zr + zi * zi < 4.0f");
    EXPECT_EQ(branchCondition("    float v = (i < n) ? a[i] : 0.0f;"), "i < n");
    EXPECT_EQ(branchCondition("    return x >= 0 ? x : -x;"), "x >= 0");
    EXPECT_EQ(branchCondition("    out[i] = v;"), "out[i] = v");
    EXPECT_EQ(sourceLine("a\nb\r\nc", 2), "b");
    EXPECT_EQ(sourceLine("a\nb", 3), "");
    EXPECT_EQ(sourceLine("a", 0), "");
}

TEST(ProfileReportText, TotalsTheCostliestLinesAndFindings)
{
    RunResult r;
    EXPECT_EQ(profileReportText(r, kSource), "");
    r.profile = handMade();
    const std::string text = profileReportText(r, kSource);
    EXPECT_NE(text.find("instructions   19 warp-level, 576 thread-level"), std::string::npos) << text;
    EXPECT_NE(text.find("global loads   1 requests, 32 sectors: 32 sectors/request (ideal 4)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("worst conflict 16-way"), std::string::npos) << text;
    // The costliest line first, with its source.
    const auto first = text.find("float v = b[threadIdx.x * 32];");
    const auto second = text.find("v = t[threadIdx.x][0];");
    ASSERT_NE(first, std::string::npos) << text;
    ASSERT_NE(second, std::string::npos) << text;
    EXPECT_LT(first, second);
    EXPECT_NE(text.find("line 4: every warp splits here: `threadIdx.x & 1`"), std::string::npos) << text;
    EXPECT_EQ(profileReportText(r, kSource, 1).find("v = t[threadIdx.x][0];"), std::string::npos);
}

TEST(ProfileJson, ShapeAndRoundTrip)
{
    RunResult r;
    EXPECT_FALSE(toJson(r).contains("profile"));
    EXPECT_FALSE(runResultFromJson(toJson(r)).profile);

    r.profile = handMade();
    LineProfile never{"/tmp/k.cu", 9, {}, {}}; // a line with no instruction executed is left out
    r.profile->lines.push_back(never);
    const json j = toJson(r, kSource);
    ASSERT_TRUE(j.contains("profile"));
    const json& p = j["profile"];
    std::set<std::string> totals;
    for (const auto& [k, v] : p["totals"].items())
        totals.insert(k);
    EXPECT_EQ(totals, kCounterNames);
    ASSERT_EQ(p["lines"].size(), 4u);
    for (const auto& line : p["lines"]) {
        std::set<std::string> keys;
        for (const auto& [k, v] : line.items())
            keys.insert(k);
        std::set<std::string> expect = kCounterNames;
        expect.insert("file");
        expect.insert("line");
        EXPECT_EQ(keys, expect);
    }
    EXPECT_EQ(p["lines"][0]["file"], "/tmp/k.cu");
    EXPECT_EQ(p["lines"][0]["line"], 3);
    EXPECT_EQ(p["lines"][0]["global_ld_sectors"], 32);
    EXPECT_EQ(p["extras"]["lines"][0]["global_ld_ideal_sectors"], 4);
    EXPECT_EQ(p["extras"]["totals"]["worst_bank_conflict"], 16);
    EXPECT_DOUBLE_EQ(p["figures"]["totals"]["ld_sectors_per_request"].get<double>(), 32.0);
    EXPECT_EQ(p["figures"]["lines"][0]["line"], 3); // costliest first
    ASSERT_EQ(p["findings"].size(), 3u);
    EXPECT_EQ(p["findings"][2]["kind"], "divergence");
    EXPECT_EQ(p["findings"][2]["text"], "every warp splits here: `threadIdx.x & 1`");
    EXPECT_EQ(p["samples"][0]["space"], "shared");
    EXPECT_EQ(p["samples"][0]["address"][3], 384);

    const RunResult back = runResultFromJson(json::parse(j.dump()));
    ASSERT_TRUE(back.profile);
    const KernelProfile& b = *back.profile;
    const KernelProfile want = handMade();
    EXPECT_EQ(b.totals, want.totals);
    EXPECT_TRUE(b.totalExtras == want.totalExtras);
    ASSERT_EQ(b.lines.size(), want.lines.size());
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
        EXPECT_EQ(b.lines[i].file, want.lines[i].file);
        EXPECT_EQ(b.lines[i].line, want.lines[i].line);
        EXPECT_EQ(b.lines[i].counters, want.lines[i].counters);
        EXPECT_TRUE(b.lines[i].extras == want.lines[i].extras);
    }
    ASSERT_EQ(b.samples.size(), 1u);
    EXPECT_EQ(b.samples[0].space, AccessSample::Space::Shared);
    EXPECT_EQ(b.samples[0].instruction, want.samples[0].instruction);
    for (int l = 0; l < 32; ++l) {
        EXPECT_EQ(b.samples[0].lanes[l].active, want.samples[0].lanes[l].active);
        EXPECT_EQ(b.samples[0].lanes[l].address, want.samples[0].lanes[l].address);
        EXPECT_EQ(b.samples[0].lanes[l].bytes, want.samples[0].lanes[l].bytes);
    }
    // Written again, the same JSON.
    EXPECT_EQ(toJson(back, kSource)["profile"], p);
}
