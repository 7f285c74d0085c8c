// `kwb-run run DOC --runner CMD --out OUT` against a runner that lies: a fake runner (a
// shell script written into each case's own scratch folder) answers hello honestly and
// the run with a malicious reply. The real kwb-run must end with a protocol error naming
// the runner and what it sent, and write nothing outside OUT: neither the traversal
// target nor anything else around the scratch folder. An honest fake runner, the control,
// gets its output written, so a refusal is the reply's doing and not the harness's.
#include "KwbProcess.hpp"
#include "ScratchArea.hpp"

#include "serve/Protocol.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>

namespace fs = std::filesystem;
using nlohmann::json;

namespace kw::test {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr rlim_t kAddressSpaceLimit = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr rlim_t kAddressSpaceLimit = 0;
#else
constexpr rlim_t kAddressSpaceLimit = rlim_t(6) << 30;
#endif
#else
constexpr rlim_t kAddressSpaceLimit = rlim_t(6) << 30;
#endif

// a (in) and c (out): four floats each.
const json kDocument
    = {{"format", "kernel-workbench"},
       {"version", 1},
       {"source", "__global__ void k(const float* a, float* c) { c[threadIdx.x] = a[threadIdx.x]; }\n"},
       {"kernel", "k"},
       {"buffers",
        {{{"name", "a"}, {"dtype", "f32"}, {"count", "4"}, {"init", {{"kind", "zeros"}}}, {"direction", "in"}},
         {{"name", "c"}, {"dtype", "f32"}, {"count", "4"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}}}},
       {"args", {{{"name", "a"}, {"buffer", "a"}}, {{"name", "c"}, {"buffer", "c"}}}},
       {"launch", {{"grid", {1, 1, 1}}, {"block", {4, 1, 1}}, {"shared_bytes", "0"}}}};

// Reads hello and answers it, reads the run and answers with run.txt, then waits for shutdown.
const char* kFakeRunner = "here=$(dirname \"$0\")\n"
                          "read -r request\n"
                          "cat \"$here/hello.txt\"\n"
                          "read -r request\n"
                          "cat \"$here/run.txt\"\n"
                          "read -r request\n";

std::string line(const json& message) { return message.dump() + "\n"; }

const std::string kFourFloats = [] {
    const float v[4] = {5, 7, 9, 11};
    return std::string(reinterpret_cast<const char*>(v), sizeof v);
}();

std::string frame(const json& name, const json& count, const std::string& payload)
{
    return line({{"v", 2},
                 {"id", 2},
                 {"event", "buffer"},
                 {"name", name},
                 {"dtype", "f32"},
                 {"count", count},
                 {"shape", {4}},
                 {"binary", payload.size()}})
        + payload;
}

std::string finalReply(const json& listedName, json shape = {4})
{
    const json result
        = {{"ok", true},
           {"device", {{"id", "sim"}, {"name", "PTX simulator"}}},
           {"compile", {{"ok", true}, {"diagnostics", json::array()}}},
           {"checks", json::array()},
           {"buffers",
            {{{"name", "a"}, {"dtype", "f32"}, {"count", 4}, {"shape", {4}}, {"direction", "in"}},
             {{"name", listedName}, {"dtype", "f32"}, {"count", 4}, {"shape", shape}, {"direction", "out"}}}}};
    return line(protocol::reply(2, result));
}

struct Malice {
    std::string name;
    std::string runReply; // everything the fake runner sends after the run request
    std::string says;     // part of kwb-run's protocol error
};

// gtest names a case by its name, not its bytes.
void PrintTo(const Malice& m, std::ostream* os) { *os << m.name; }

const std::string kTraversal = "../../x";
const std::string kNul("c\0", 2);

std::vector<Malice> malice()
{
    const std::uint64_t big = std::uint64_t(1) << 42, wraps = (std::uint64_t(1) << 62) + 1;
    return {
        {"traversal_frame", frame(kTraversal, 4, kFourFloats) + finalReply(kTraversal), "\"../../x\""},
        {"traversal_result", frame("c", 4, kFourFloats) + finalReply(kTraversal), "\"../../x\""},
        {"nul_name", frame(kNul, 4, kFourFloats) + finalReply(kNul), "\"c\\x00\""},
        {"windows_device_name", frame("CON", 4, kFourFloats) + finalReply("CON"), "device name"},
        {"name_not_in_request", frame("zz", 4, kFourFloats) + finalReply("zz"), "not a buffer of the request"},
        {"input_sent_as_output", frame("a", 4, kFourFloats) + frame("c", 4, kFourFloats) + finalReply("c"),
         "does not ask back"},
        {"duplicate_frame", frame("c", 4, kFourFloats) + frame("c", 4, kFourFloats) + finalReply("c"), "sent twice"},
        {"count_2_to_42", frame("c", big, kFourFloats) + finalReply("c"), "4398046511104 elements"},
        {"count_wraps_to_4_bytes", frame("c", wraps, kFourFloats.substr(0, 4)) + finalReply("c"),
         "4611686018427387905"},
        {"binary_oops",
         line({{"v", 2},
               {"id", 2},
               {"event", "buffer"},
               {"name", "c"},
               {"dtype", "f32"},
               {"count", 4},
               {"binary", "oops"}})
             + finalReply("c"),
         "\"binary\" must be a byte count"},
        {"ok_is_a_string", frame("c", 4, kFourFloats) + line({{"v", 2}, {"id", 2}, {"ok", "yes"}}), "\"ok\""},
        {"shape_lies", frame("c", 4, kFourFloats) + finalReply("c", {1000000}), "does not hold its 4 elements"},
    };
}

// The files under `dir`, relative to it.
std::set<std::string> filesUnder(const fs::path& dir)
{
    std::set<std::string> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        out.insert(fs::relative(it->path(), dir).generic_string());
    return out;
}

struct FakeRun {
    KwbOutcome outcome;
    std::set<std::string> before, after; // files of the scratch folder
};

// kwb-run run doc.kwb --runner "sh .../fake.sh" --out out, in a fresh scratch folder of its own.
FakeRun runAgainst(const ScratchArea& area, const std::string& runReply)
{
    const fs::path s = area.scratch();
    std::ofstream(s / "doc.kwb") << kDocument.dump(2);
    std::ofstream(s / "fake.sh") << kFakeRunner;
    std::ofstream(s / "hello.txt", std::ios::binary) << line(
        protocol::reply(1, {{"protocol", protocol::kVersion}, {"version", "0.1.0"}, {"devices", json::array()}}));
    std::ofstream(s / "run.txt", std::ios::binary) << runReply;
    FakeRun r;
    r.before = filesUnder(s);
    r.outcome = runKwbIn(s, {"run", "doc.kwb", "--runner", "sh " + (s / "fake.sh").string(), "--out", "out"}, {},
                         area.io(), std::chrono::seconds(60), kAddressSpaceLimit);
    r.after = filesUnder(s);
    return r;
}

class MaliciousRunner : public ::testing::TestWithParam<Malice> { };

TEST_P(MaliciousRunner, IsAProtocolErrorAndNothingIsWrittenOutsideOut)
{
    const Malice& m = GetParam();
    ScratchArea area("malicious_runner_" + m.name);
    const auto around = area.snapshot();
    const FakeRun r = runAgainst(area, m.runReply);
    const std::string where = "stderr: " + r.outcome.err + "\nstdout: " + r.outcome.out.substr(0, 2000);

    ASSERT_FALSE(r.outcome.killed) << where;
    EXPECT_EQ(r.outcome.exitCode, 2) << where;
    EXPECT_NE(r.outcome.err.find("kwb-run: protocol error: the runner \"sh "), std::string::npos)
        << "a protocol error naming the runner\n"
        << where;
    EXPECT_NE(r.outcome.err.find(m.says), std::string::npos) << "names what it sent: " << m.says << "\n" << where;

    // "../../x" from out/ is the folder around the scratch folder: nothing may appear there.
    for (const fs::path& target : {area.root() / "x.npy", area.root() / "x", area.scratch() / "x.npy",
                                   area.scratch() / "c", area.scratch() / "out" / "c"})
        EXPECT_FALSE(fs::exists(target)) << target << " was written\n" << where;
    EXPECT_EQ(area.snapshot(), around) << "something outside the scratch folder changed\n" << where;
    for (const std::string& f : r.after)
        EXPECT_TRUE(r.before.count(f) || f == "out" || f.rfind("out/", 0) == 0) << f << " was written outside out/";
}

INSTANTIATE_TEST_SUITE_P(Replies, MaliciousRunner, ::testing::ValuesIn(malice()),
                         [](const ::testing::TestParamInfo<Malice>& info) { return info.param.name; });

TEST(MaliciousRunnerControl, AnHonestFakeRunnerGetsItsOutputWritten)
{
    ScratchArea area("malicious_runner_control");
    const FakeRun r = runAgainst(area, frame("c", 4, kFourFloats) + finalReply("c"));
    EXPECT_EQ(r.outcome.exitCode, 0) << "stderr: " << r.outcome.err << "\nstdout: " << r.outcome.out;
    EXPECT_TRUE(fs::is_regular_file(area.scratch() / "out" / "c.npy")) << r.outcome.err;
    EXPECT_TRUE(fs::is_regular_file(area.scratch() / "out" / "result.json"));
    EXPECT_FALSE(fs::exists(area.scratch() / "out" / "a.npy")) << "an input is not an output";
}

} // namespace
} // namespace kw::test
