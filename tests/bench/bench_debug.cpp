// The debugger's costs (docs/benchmarks.md, "Debugger"):
//   condition: a conditional breakpoint that never fires, on a kernel of 2^20 threads,
//     against a plain simulator run of the same launch on one thread (the debugger runs
//     the blocks on one thread) and on every core; the goal is at most 1.5x the former.
//   reverse: a kernel of about 10^7 warp-level instructions run to its end, then earlier
//     stops reached by running again from the start (goto, reverse-continue,
//     reverse-step); the goal is 1 s each.
//   condition-g: the same with the kernel compiled with -G (the debugger's default build)
//     and conditions on source names, against a plain run of the -G code; and the loop
//     line's condition written so that it is not compiled, evaluated lane by lane.
// Each figure is the fastest of interleaved rounds, in wall-clock seconds and in the
// process's CPU seconds (all the runs here use one thread, so on a loaded machine the
// CPU time says what the work costs, and the wall time what another load made of it).
// Usage: bench_debug [condition|condition-g|reverse|all]
#include "SimCompile.hpp"
#include "SimLaunch.hpp"
#include "debug/DebugSession.hpp"
#include "sim/SimBackend.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

using namespace kwtest;
using namespace kw::debug;

const char* kWork = R"(
__global__ void work(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i] * 2.0f; // once
        for (int k = 0; k < 16; ++k)
            v = v * 0.999f + 1.0f; // loop
        y[i] = v;
    }
}
)";

const char* kSpin = R"(
__global__ void spin(float *y, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = float(i);
    for (int k = 0; k < iters; ++k)
        v = v * 0.999f + 1.0f; // loop
    y[i] = v; // store
}
)";

kw::BufferArg floats(const std::string& name, const std::vector<float>& v)
{
    kw::BufferArg b;
    b.name = name;
    b.data = kw::HostBuffer(kw::DType::F32, v.size());
    std::memcpy(b.data.data(), v.data(), v.size() * sizeof(float));
    return b;
}

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// One timed stretch: wall-clock and the process's CPU seconds from the same point.
struct Took {
    double wall = 0, cpu = 0;
};
struct Clock {
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    double c0 = cpuSeconds();
    Took took() const { return {since(t0), cpuSeconds() - c0}; }
};

// The fastest of a kind's runs, in each measure.
struct Best {
    double wall = 1e30, cpu = 1e30;
    void add(Took t)
    {
        wall = std::min(wall, t.wall);
        cpu = std::min(cpu, t.cpu);
    }
};

int lineOf(const std::string& source, const std::string& marker)
{
    const auto at = source.find(marker);
    return 1 + int(std::count(source.begin(), source.begin() + std::ptrdiff_t(at), '\n'));
}

bool condition(int rounds, bool deviceDebug = false)
{
    std::string log;
    const auto img = compileCuda(kWork, "work", log, false,
                                 deviceDebug ? std::vector<std::string>{"-G"} : std::vector<std::string>{});
    if (!img) {
        std::fprintf(stderr, "bench_debug: %s\n", log.c_str());
        return false;
    }
    const int n = 1 << 20;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i)
        x[std::size_t(i)] = float(i % 1000);
    const kw::LaunchConfig cfg = config({unsigned(n / 256), 1, 1}, {256, 1, 1}, 0, 600);
    const std::vector<kw::LaunchArg> args{bufArg(0), bufArg(1), scalar<int>(n)};
    auto plainOnce = [&](unsigned threads) {
        kw::SimBackend sim;
        sim.setThreads(threads);
        std::vector<kw::BufferArg> bufs{floats("x", x), floats("y", std::vector<float>(n))};
        const Clock c;
        sim.launch(*img, bufs, args, cfg);
        return c.took();
    };
    // The debugger to the end of the launch: set up untimed, the run to the end timed.
    std::uint64_t hits = 0;
    auto debuggedOnce = [&](const std::string& marker, const std::string& cond) {
        DebugSession s(*img, {floats("x", x), floats("y", std::vector<float>(n))}, args, cfg, kWork, "kernel.cu");
        if (!marker.empty()) {
            BreakpointSpec b{"", std::uint32_t(lineOf(kWork, marker))};
            b.condition = cond;
            s.addBreakpoint(b);
        }
        const Clock c;
        const Stop end = s.resume(Motion::Continue);
        const Took t = c.took();
        hits += end.reason == StopReason::Finished ? 0 : 1;
        return t;
    };
    // Interleaved rounds, the fastest of each kind: the machine's other load weighs on all alike.
    Best one, all, observed, once, loop, slow;
    for (int r = 0; r < rounds; ++r) {
        one.add(plainOnce(1));
        all.add(plainOnce(0));
        observed.add(debuggedOnce("", ""));
        once.add(debuggedOnce("// once", deviceDebug ? "i < 0" : "threadIdx.x > 4096"));
        loop.add(debuggedOnce("// loop", deviceDebug ? "i < 0 || v < -1e30" : "threadIdx.x > 4096 || %f1 < -1e30"));
        if (deviceDebug) // arithmetic keeps it from LanePredicate: muparser, lane by lane
            slow.add(debuggedOnce("// loop", "(i + 0) < 0 || (v + 0) < -1e30"));
    }
    const bool fired = hits != 0; // a breakpoint that never fires did: the figures mean nothing
    if (deviceDebug)
        std::printf("debug condition (-G, conditions on source names)\n");
    std::printf("debug condition threads=%d plain_1thread_s=%.4f cpu_s=%.4f plain_allcores_s=%.4f\n", n, one.wall,
                one.cpu, all.wall);
    auto row = [&](const char* name, const Best& b, const char* note) {
        std::printf("debug condition %s_s=%.4f ratio=%.2f cpu_s=%.4f cpu_ratio=%.2f%s\n", name, b.wall,
                    b.wall / one.wall, b.cpu, b.cpu / one.cpu, note);
    };
    row("no_breakpoint", observed, "");
    row("line_once", once, " (goal 1.5)");
    row("line_in_loop16", loop, "");
    if (deviceDebug)
        row("line_in_loop16_lane_by_lane", slow, "");
    std::printf("debug condition check=%s\n", fired ? "FAILED" : "ok");
    std::fflush(stdout);
    return !fired;
}

bool reverse()
{
    std::string log;
    const auto img = compileCuda(kSpin, "spin", log);
    if (!img) {
        std::fprintf(stderr, "bench_debug: %s\n", log.c_str());
        return false;
    }
    const int blocks = 64, threads = 256, iters = 11000;
    DebugSession s(*img, {floats("y", std::vector<float>(blocks * threads))}, {bufArg(0), scalar<int>(iters)},
                   config({blocks, 1, 1}, {threads, 1, 1}, 0, 600), kSpin, "kernel.cu");
    BreakpointSpec late{"", std::uint32_t(lineOf(kSpin, "// store"))};
    late.condition = "blockIdx.x == 60 && threadIdx.x == 0";
    s.addBreakpoint(late);
    auto t0 = std::chrono::steady_clock::now();
    const Stop hit = s.resume(Motion::Continue);
    const Stop end = s.resume(Motion::Continue);
    const double forward = since(t0);
    const std::uint64_t total = end.position;
    std::printf("debug reverse warp_instructions=%llu forward_to_end_s=%.4f\n", (unsigned long long)total, forward);
    bool ok = hit.reason == StopReason::Breakpoint && end.reason == StopReason::Finished;
    double worst = 0;
    for (const double f : {0.1, 0.5, 0.9, 0.999}) {
        const auto p = std::uint64_t(double(total) * f);
        t0 = std::chrono::steady_clock::now();
        const Stop back = s.goTo(p);
        const double took = since(t0);
        worst = std::max(worst, took);
        ok &= back.position == p;
        std::printf("debug reverse goto=%llu s=%.4f\n", (unsigned long long)p, took);
    }
    s.goTo(total - 1000);
    t0 = std::chrono::steady_clock::now();
    const Stop rc = s.resume(Motion::ReverseContinue);
    const double rcTook = since(t0);
    worst = std::max(worst, rcTook);
    ok &= rc.position == hit.position;
    std::printf("debug reverse reverse_continue s=%.4f\n", rcTook);
    t0 = std::chrono::steady_clock::now();
    const Stop rs = s.resume(Motion::ReverseStep);
    const double rsTook = since(t0);
    worst = std::max(worst, rsTook);
    ok &= rs.position < rc.position;
    std::printf("debug reverse reverse_step s=%.4f\n", rsTook);
    std::printf("debug reverse worst_s=%.4f (goal 1) check=%s\n", worst, ok ? "ok" : "FAILED");
    std::fflush(stdout);
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string which = argc > 1 ? argv[1] : "all";
    bool ok = true;
    if (which == "all" || which == "condition")
        ok &= condition(9);
    if (which == "all" || which == "condition-g")
        ok &= condition(9, true);
    if (which == "all" || which == "reverse")
        ok &= reverse();
    return ok ? 0 : 1;
}
