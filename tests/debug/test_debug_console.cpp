// The command language on samples/reduction_shared.kwb: a warp stepped through the tree
// reduction, `lanes` showing the partial sums each lane adds and `shared` what they
// wrote, against the host's reduction; the transcript is the same on every run; and
// `kwb-run debug` reads the same commands from its real standard input.
#include "DebugTestSupport.hpp"
#include "compile/Compiler.hpp"
#include "doc/DocumentReader.hpp"
#include "gpu/ChildProcess.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace {

using namespace kwtest;
using namespace kw::debug;

const std::string kSample = std::string(KW_SAMPLES_DIR) + "/reduction_shared.kwb";

std::unique_ptr<DebugSession> sampleSession()
{
    const kw::Document doc = kw::DocumentReader::readFile(kSample, kw::Trust::Trusted);
    kw::Compiler compiler;
    kw::debug::DebugOptions o;
    o.optimized = true; // the optimized code's registers (the -G build: test_debug_source_variables)
    return DebugSession::fromDocument(doc, compiler, o);
}

std::uint32_t addLine()
{
    const kw::Document doc = kw::DocumentReader::readFile(kSample, kw::Trust::Trusted);
    return std::uint32_t(lineOf(doc.source, "partial[tid] += partial[tid + stride];"));
}

// The numbers of a `lanes` table's column `column` (1: the first expression), by lane.
std::vector<double> column(const std::string& table, int column)
{
    std::vector<double> out;
    std::istringstream in(table);
    std::string line;
    std::getline(in, line); // the header
    while (std::getline(in, line)) {
        std::istringstream cells(line);
        std::string lane, mark, tid, value;
        cells >> lane >> mark >> tid;
        for (int c = 0; c < column; ++c)
            cells >> value;
        out.push_back(std::stod(value));
    }
    return out;
}

TEST(DebugConsole, StepsAWarpThroughTheTreeReduction)
{
    KW_REQUIRE_NVRTC();
    auto s = sampleSession();
    DebugConsole c(*s);
    const std::uint32_t line = addLine();
    EXPECT_EQ(c.execute(fmt::format("break {}", line)), fmt::format("breakpoint 1 at kernel.cu:{}\n", line));
    // Block 0 holds 0..255: partial[t] = t after the load.
    std::vector<double> host(256);
    for (int t = 0; t < 256; ++t)
        host[std::size_t(t)] = t;
    for (std::uint32_t stride = 128; stride >= 32; stride /= 2) {
        const std::string stop = c.execute("continue");
        ASSERT_TRUE(contains(stop, "breakpoint 1 hit by lane 0")) << stop;
        ASSERT_TRUE(contains(stop, "block 0 warp 0")) << stop;
        // To the store of the sum: its register is what lane t writes to partial[t].
        ASSERT_TRUE(stepUntil(*s, "st.shared.f32"));
        const std::string reg = storedRegister(nextInstruction(*s));
        const auto sums = column(c.execute("lanes " + reg + " threadIdx.x"), 1);
        ASSERT_EQ(sums.size(), 32u);
        for (std::uint32_t t = 0; t < 32; ++t)
            EXPECT_EQ(sums[t], host[t] + host[t + stride]) << "stride " << stride << " lane " << t;
        for (std::uint32_t t = 0; t < stride; ++t)
            host[t] += host[t + stride];
        // The other warps of the block add theirs before the barrier releases: `barrier`
        // stops at the breakpoint in each warp with threads below the stride, then at the release.
        for (std::uint32_t warp = 1; warp < stride / 32; ++warp) {
            const std::string on = c.execute("barrier");
            EXPECT_TRUE(contains(on, "breakpoint 1 hit by lane 0")) << on;
            EXPECT_TRUE(contains(on, fmt::format("block 0 warp {} ", warp))) << on;
        }
        c.execute("warp 0");
        const std::string barrier = c.execute("barrier");
        ASSERT_TRUE(contains(barrier, "] barrier")) << barrier;
        const std::string shared = c.execute("shared f32 0 64");
        std::istringstream in(shared);
        std::string l;
        std::getline(in, l);
        std::getline(in, l);
        for (std::uint32_t t = 0; t < 64; ++t) {
            ASSERT_TRUE(std::getline(in, l));
            std::istringstream cells(l);
            double offset = 0, bank = 0, value = 0;
            cells >> offset >> bank >> value;
            EXPECT_EQ(offset, 4 * t);
            EXPECT_EQ(bank, t % 32);
            EXPECT_EQ(value, host[t]) << "stride " << stride << " t " << t;
            // Thread t alone writes partial[t]: at the addition since the first step (stride 128).
            std::string writer;
            std::getline(cells, writer);
            EXPECT_TRUE(contains(writer, fmt::format("warp {} lane {} (thread {}) at kernel.cu:18", t / 32, t % 32, t)))
                << "stride " << stride << " t " << t << ": " << writer;
        }
        // The upper half no step adds to: last written by the load of line 11.
        for (std::uint32_t t : {128u, 200u, 255u}) {
            const std::string word = c.execute(fmt::format("shared f32 {} 1", 4 * t));
            EXPECT_TRUE(contains(word, fmt::format("warp {} lane {} (thread {}) at kernel.cu:11", t / 32, t % 32, t)))
                << word;
        }
    }
    EXPECT_TRUE(contains(c.execute("info warps"), "* warp  0"));
    EXPECT_TRUE(contains(c.execute("print %nosuch"), "error: "));
    EXPECT_TRUE(contains(c.execute("frobnicate"), "error: unknown command"));
}

// `ptx` lists every instruction the simulator runs, by pc, with its line; `break *PC`
// stops before that one instruction, inside its line (where `break LINE` never stops), in
// every warp that reaches it.
TEST(DebugConsole, PtxListsTheInstructionsAndBreakStarStopsAtOne)
{
    KW_REQUIRE_NVRTC();
    auto s = sampleSession();
    DebugConsole c(*s);
    const std::uint32_t line = addLine();
    std::istringstream listing(c.execute("ptx"));
    std::uint32_t add = 0, lines = 0;
    for (std::string l; std::getline(listing, l); ++lines) {
        const Location at = s->locate(lines);
        EXPECT_EQ(l,
                  fmt::format("{:>5}  {:<14}  {}", lines, at.line ? fmt::format("kernel.cu:{}", at.line) : "-",
                              at.instruction));
        if (at.line == line && contains(at.instruction, "add.f32"))
            add = lines;
    }
    ASSERT_EQ(lines, s->instructions());
    ASSERT_GT(add, 0u);
    ASSERT_EQ(s->locate(add - 1).line, line) << "the add is inside its line";
    EXPECT_EQ(c.execute(fmt::format("break *{}", add)),
              fmt::format("breakpoint 1 at pc {} (kernel.cu:{})\n", add, line));
    EXPECT_TRUE(contains(c.execute("info breakpoints"), fmt::format("1  pc {} (kernel.cu:{})", add, line)));
    for (std::uint32_t warp = 0; warp < 4; ++warp) {
        const std::string stop = c.execute("continue");
        ASSERT_TRUE(contains(stop, "breakpoint 1 hit")) << stop;
        EXPECT_TRUE(contains(stop, fmt::format("block 0 warp {} ", warp))) << stop;
        EXPECT_EQ(s->warp().where.pc, add);
        EXPECT_EQ(s->stop().block, 0u);
    }
    EXPECT_TRUE(contains(c.execute(fmt::format("break *{}", s->instructions())), "error: no instruction at pc"));
}

const char* kScript = R"(break 18 if threadIdx.x == 40
continue
lanes %r1 threadIdx.x
print threadIdx.x * 2
info warps
info breakpoints
watch block_sums(1)
delete 1
continue
backtrace
reverse-continue
block 2
thread 100
print threadIdx.x
stepi
step
next
reconverge
shared f32 0 4
reverse-step
goto 5000
quit
)";

std::string transcript()
{
    auto s = sampleSession();
    DebugConsole c(*s);
    std::string out = c.stopText(s->stop());
    std::istringstream in(kScript);
    for (std::string line; std::getline(in, line);)
        out += "> " + line + "\n" + c.execute(line);
    return out;
}

TEST(DebugConsole, TheTranscriptIsTheSameOnEveryRun)
{
    KW_REQUIRE_NVRTC();
    const std::string first = transcript();
    EXPECT_EQ(transcript(), first);
    EXPECT_TRUE(contains(first, "breakpoint 1 hit by lane 8")) << first; // thread 40 is warp 1's lane 8
    EXPECT_TRUE(contains(first, "watchpoint 1: written by block 1 warp 0 lane 0")) << first;
    EXPECT_FALSE(contains(first, "error:")) << first;
}

TEST(DebugConsole, KwbRunDebugReadsItsCommandsFromStandardInput)
{
    KW_REQUIRE_NVRTC();
    const std::string script = "break 18\ncontinue\nlanes threadIdx.x\nnonsense\ncontinue\nquit\nstep\n";
    std::string outputs[2];
    for (auto& out : outputs) {
        ChildProcess child({"debug", kSample, "--trust"});
        child.write(script);
        child.closeStdin();
        out = child.readAllStdout();
        const std::string err = child.readStderr();
        EXPECT_EQ(child.wait(), 0) << err;
    }
    EXPECT_EQ(outputs[0], outputs[1]);
    const std::string& out = outputs[0];
    EXPECT_TRUE(contains(out, "[0] entry\n")) << out;
    EXPECT_TRUE(contains(out, "> break 18\nbreakpoint 1 at kernel.cu:18\n")) << out;
    EXPECT_TRUE(contains(out, "> nonsense\nerror: unknown command")) << out;
    EXPECT_TRUE(contains(out, "block 0 warp 1")) << out; // the second hit
    EXPECT_FALSE(contains(out, "> step\n")) << "commands after quit are not read";

    // A document that is not there: bad input, on stderr.
    ChildProcess missing({"debug", "/nonexistent/x.kwb"});
    missing.closeStdin();
    missing.readAllStdout();
    EXPECT_NE(missing.wait(), 0);
}

// Ctrl+C (SIGINT) while `kwb-run debug` runs a `next` over a call that loops long pauses
// it: `[N] paused` inside the loop, the session goes on reading commands, and `next`
// again ends at the line after the call with the value the host computes.
TEST(DebugConsole, CtrlCPausesALongNextAndNextGoesOn)
{
    KW_REQUIRE_NVRTC();
    const int n = 4000000;
    const std::string path = kwtest::churnDocument("kwb-sigint", n);
    ChildProcess child({"debug", path, "--trust"});
    auto until = [&](const std::string& part) {
        std::string seen;
        while (const auto line = child.readLine(std::chrono::seconds(120))) {
            seen += *line + "\n";
            if (contains(*line, part))
                return seen;
        }
        ADD_FAILURE() << "no line with " << part << " in:\n" << seen << child.readStderr();
        return seen;
    };
    child.write("break 10\ncontinue\n");
    until("breakpoint 1 hit");
    child.write("delete 1\nnext\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(child.pid(), SIGINT), 0);
    until("> next");
    const std::string paused = until("kernel.cu:");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << "the pause was not prompt";
    EXPECT_TRUE(contains(paused, "paused")) << paused;
    EXPECT_TRUE(contains(paused, "in churn(int, int)")) << paused;
    child.write("next\n");
    until("> next");
    const std::string arrived = until("kernel.cu:");
    EXPECT_TRUE(contains(arrived, "step")) << arrived;
    EXPECT_TRUE(contains(arrived, "kernel.cu:11")) << arrived;
    std::uint32_t host = 1;
    for (std::uint32_t i = 0; i < std::uint32_t(n); ++i)
        host = host * 3 + i;
    child.write("print s\nquit\n");
    const std::string printed = until("s = ");
    EXPECT_TRUE(contains(printed, fmt::format("s = {}", std::int32_t(host)))) << printed;
    child.closeStdin();
    child.readAllStdout();
    EXPECT_EQ(child.wait(), 0) << child.readStderr();
    std::filesystem::remove(path);
}

} // namespace
