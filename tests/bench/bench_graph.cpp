// bench_graph: documents of steps on the GPU against their peers, side by side in one
// process (docs/benchmarks.md, "Documents of steps on the GPU").
//
//   bench_graph [--quick]
//
// 1. A loop of N tiny launches run as a CUDA graph (SequenceRun, the whole run timed:
//    upload, first pass, recording, replays, download) against a hand-written driver-API
//    loop of the same launches (same kernel and arguments, cuLaunchKernel on one stream,
//    synchronised once). The graph's added cost per launch is (graph - loop) / N; target
//    at most 5 us. The same document step by step (run.graph false) is shown beside it.
// 2. A 20-step sequence on a 256 MiB buffer with the buffer resident (one upload, 20
//    launches, one download) against today's per-launch path: 20 single-launch runs, each
//    uploading, launching and downloading.
// Every output is compared in full; a row whose run failed prints FAILED. Exit 0 when
// every target is met, 1 when one is missed, 2 when a run failed.
#include "compile/Compiler.hpp"
#include "cuda/CudaBackend.hpp"
#include "cuda/DeviceMemory.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/Module.hpp"
#include "cuda/Stream.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/PreparedRun.hpp"
#include "launch/TimingStats.hpp"
#include "run/SequenceRun.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

const char* kSource = R"(
extern "C" __global__ void tick(unsigned* a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += 1u;
}
)";

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Failed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

kw::CompileResult compileTick(kw::Compiler& compiler, const kw::cuda::CudaBackend& backend)
{
    kw::CompileRequest req;
    req.source = kSource;
    req.options.arch = backend.compileArch();
    req.nameExpressions = {"tick"};
    kw::CompileResult r = compiler.compile(req);
    if (!r.ok)
        throw Failed("tick did not compile: " + r.log);
    return r;
}

kw::CompiledKernel compiledTick(const kw::CompileResult& r)
{
    kw::CompiledKernel k;
    k.image.name = "tick";
    k.image.loweredName = r.loweredNames.at("tick");
    k.image.ptx = r.ptx;
    k.image.cubin = r.cubin;
    for (const kw::PtxEntry& e : r.entries)
        if (e.name == k.image.loweredName)
            k.image.entry = e;
    return k;
}

json tickDocument(const std::string& n, const json& steps, bool graph)
{
    return {
        {"format", "kernel-workbench"},
        {"version", 2},
        {"source", kSource},
        {"kernels", {"tick"}},
        {"variables", json::array({json::array({"n", n})})},
        {"buffers",
         {{{"name", "a"}, {"dtype", "u32"}, {"count", "n"}, {"init", {{"kind", "arange"}}}, {"direction", "inout"}}}},
        {"steps", steps},
        {"run", {{"graph", graph}, {"time_limit_s", 120}}}};
}

json launchTick(const std::string& grid)
{
    return {{"launch", "tick"},
            {"grid", grid},
            {"block", 256},
            {"args", {{{"buffer", "a"}}, {{"type", "i32"}, {"value", "n"}}}}};
}

// a[i] == i + launches for every i, or the row fails.
void requireTicked(const kw::HostBuffer& a, std::size_t launches, const std::string& what)
{
    const auto* p = reinterpret_cast<const std::uint32_t*>(a.data());
    for (std::size_t i = 0; i < a.count(); ++i)
        if (p[i] != std::uint32_t(i + launches))
            throw Failed(what + ": a[" + std::to_string(i) + "] = " + std::to_string(p[i]) + ", expected "
                         + std::to_string(i + launches));
}

// The whole run of a document of steps, inputs and kernels ready: wall ms.
double timeSequence(const kw::Document& doc, const kw::CompiledKernel& tick, const kw::PreparedRun& prepared,
                    kw::cuda::CudaBackend& backend, std::size_t launches, const std::string& what,
                    std::string* notes = nullptr)
{
    kw::PreparedRun inputs = prepared; // copied outside the timed region
    kw::RunResult result;
    const auto t0 = Clock::now();
    {
        kw::SequenceRun run(doc, {{"tick", tick}}, std::move(inputs), backend, prepared.config);
        run.run(result);
    }
    const double ms = msSince(t0);
    if (!result.ok)
        throw Failed(what + " failed: " + result.stopped + (result.fault ? result.fault->message : ""));
    requireTicked(result.buffers.at(0).data, launches, what);
    if (notes)
        for (const std::string& w : result.warnings)
            *notes += w + "\n";
    return ms;
}

// The hand-written peer: cuLaunchKernel `launches` times on one stream, one synchronisation.
double timeDriverLoop(const kw::CompileResult& compiled, int n, std::size_t launches)
{
    const auto& api = kw::cuda::DriverApi::get();
    kw::cuda::Module module(
        compiled.cubin.empty() ? static_cast<const void*>(compiled.ptx.c_str()) : compiled.cubin.data(), "tick");
    CUfunction f = module.function(compiled.loweredNames.at("tick"));
    kw::cuda::Stream stream;
    kw::cuda::DeviceMemory a(std::size_t(n) * 4, "a");
    std::vector<std::uint32_t> host(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        host[std::size_t(i)] = std::uint32_t(i);
    api.check(api.cuMemcpyHtoDAsync(a.pointer(), host.data(), host.size() * 4, stream.handle()), "cuMemcpyHtoDAsync");
    api.check(api.cuStreamSynchronize(stream.handle()), "cuStreamSynchronize");
    CUdeviceptr pointer = a.pointer();
    void* params[] = {&pointer, &n};
    const unsigned blocks = unsigned((n + 255) / 256);
    const auto t0 = Clock::now();
    for (std::size_t k = 0; k < launches; ++k)
        api.check(api.cuLaunchKernel(f, blocks, 1, 1, 256, 1, 1, 0, stream.handle(), params, nullptr),
                  "cuLaunchKernel");
    api.check(api.cuStreamSynchronize(stream.handle()), "cuStreamSynchronize");
    const double ms = msSince(t0);
    api.check(api.cuMemcpyDtoHAsync(host.data(), a.pointer(), host.size() * 4, stream.handle()), "cuMemcpyDtoHAsync");
    api.check(api.cuStreamSynchronize(stream.handle()), "cuStreamSynchronize");
    kw::HostBuffer out(kw::DType::U32, host.size());
    std::memcpy(out.data(), host.data(), host.size() * 4);
    requireTicked(out, launches, "the driver-API loop");
    return ms;
}

double median(std::vector<double> v) { return kw::TimingStats::compute(v).median; }

} // namespace

int main(int argc, char** argv)
{
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    const int rounds = quick ? 2 : 5;
    int status = 0;
    try {
        kw::cuda::CudaBackend backend(0);
        kw::Compiler compiler;
        const kw::CompileResult compiled = compileTick(compiler, backend);
        const kw::CompiledKernel tick = compiledTick(compiled);
        std::printf("device: %s\n\n", backend.device().name.c_str());
        std::printf("%-58s %14s %14s %8s %10s %s\n", "case", "kwb", "peer", "ratio", "target", "result");

        // 1. The graph's added cost per launch.
        try {
            const std::size_t launches = quick ? 5000 : 20000;
            const int n = 256;
            const json steps = {{{"repeat", launches}, {"name", "ticks"}, {"steps", {launchTick("1")}}}};
            const kw::Document graph
                = kw::DocumentReader::readString(tickDocument(std::to_string(n), steps, true).dump());
            const kw::Document alone
                = kw::DocumentReader::readString(tickDocument(std::to_string(n), steps, false).dump());
            const kw::PreparedRun prepared = kw::PreparedRun::fromDocument(graph);
            std::string notes;
            timeSequence(graph, tick, prepared, backend, launches, "the graph (warm-up)", &notes);
            timeDriverLoop(compiled, n, launches);
            if (notes.find("CUDA graph") == std::string::npos)
                throw Failed("the loop did not run as a CUDA graph: " + notes);
            std::vector<double> g, l, s;
            for (int round = 0; round < rounds; ++round) { // alternating, so drift weighs on both
                g.push_back(timeSequence(graph, tick, prepared, backend, launches, "the graph"));
                l.push_back(timeDriverLoop(compiled, n, launches));
                s.push_back(timeSequence(alone, tick, prepared, backend, launches, "step by step"));
            }
            const double perGraph = median(g) * 1000.0 / double(launches);
            const double perLoop = median(l) * 1000.0 / double(launches);
            const double perAlone = median(s) * 1000.0 / double(launches);
            const double added = perGraph - perLoop;
            const bool met = added <= 5.0;
            std::printf("%-58s %11.3f us %11.3f us %8.3f %10s %s\n",
                        ("tiny launch as a CUDA graph, per launch (" + std::to_string(launches) + ")").c_str(),
                        perGraph, perLoop, perGraph / perLoop, "", "");
            std::printf("%-58s %11.3f us %14s %8s %10s %s\n", "  graph's added cost per launch vs cuLaunchKernel loop",
                        added, "", "", "<= 5 us", met ? "met" : "MISSED");
            std::printf("%-58s %11.3f us %11.3f us %8.3f %10s %s\n", "  the same step by step (run.graph false)",
                        perAlone, perLoop, perAlone / perLoop, "info", "");
            std::printf("  %s", notes.c_str());
            if (!met)
                status = std::max(status, 1);
        } catch (const std::exception& e) {
            std::printf("%-58s FAILED: %s\n", "tiny launch as a CUDA graph", e.what());
            status = 2;
        }

        // 2. 20 launches on a 256 MiB buffer: resident against 20 single-launch runs.
        try {
            const std::size_t launches = 20;
            const std::string n = "1 << 26";
            json steps = json::array();
            for (std::size_t k = 0; k < launches; ++k)
                steps.push_back(launchTick("n / 256"));
            const kw::Document doc = kw::DocumentReader::readString(tickDocument(n, steps, true).dump());
            const kw::PreparedRun prepared = kw::PreparedRun::fromDocument(doc);
            kw::LaunchConfig config = prepared.config;
            config.grid = {(1u << 26) / 256, 1, 1};
            config.block = {256, 1, 1};
            config.warmup = 0;
            config.repeats = 0;
            kw::LaunchArg pointer;
            pointer.isBuffer = true;
            kw::LaunchArg count;
            const int elements = 1 << 26;
            count.bytes.resize(4);
            std::memcpy(count.bytes.data(), &elements, 4);
            const auto perLaunchPath = [&] {
                std::vector<kw::BufferArg> buffers = prepared.buffers; // copied outside the timed region
                const auto t0 = Clock::now();
                for (std::size_t k = 0; k < launches; ++k) {
                    const kw::LaunchReport r = backend.launch(tick.image, buffers, {pointer, count}, config);
                    if (!r.ok)
                        throw Failed("a single-launch run failed: " + (r.fault ? r.fault->message : ""));
                }
                const double ms = msSince(t0);
                requireTicked(buffers.at(0).data, launches, "20 single-launch runs");
                return ms;
            };
            timeSequence(doc, tick, prepared, backend, launches, "resident (warm-up)");
            perLaunchPath();
            std::vector<double> resident, single;
            for (int round = 0; round < std::max(2, rounds - 2); ++round) {
                resident.push_back(timeSequence(doc, tick, prepared, backend, launches, "resident"));
                single.push_back(perLaunchPath());
            }
            const double a = median(resident), b = median(single);
            std::printf("%-58s %11.2f ms %11.2f ms %8.3f %10s %s\n",
                        "20 launches on 256 MiB: resident vs 20 single-launch runs", a, b, a / b, "info", "");
        } catch (const std::exception& e) {
            std::printf("%-58s FAILED: %s\n", "20 launches on 256 MiB", e.what());
            status = 2;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_graph: %s\n", e.what());
        return 2;
    }
    return status;
}
