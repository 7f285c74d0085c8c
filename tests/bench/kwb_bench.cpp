// kwb-bench: measures Kernel Workbench's engine in process on the GPU and prints one
// JSON object (read by bench_vs_cupy.py, which times the same cases with CuPy).
//
//   kwb-bench [--quick]
//
// Cases: NVRTC compile of a new source (warm process) and of a cache hit; an empty
// launch through the driver API; add_vectors at n = 2^20 edited and re-run (compile,
// upload, launch, download); add_vectors kernel time at n = 2^26; a 1 GiB upload
// through pinned staging.
#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "cuda/Context.hpp"
#include "cuda/CudaBackend.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/Module.hpp"
#include "doc/DocumentReader.hpp"
#include "launch/TimingStats.hpp"
#include "run/RunEngine.hpp"
#include "serve/ResultJson.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string addSource(int edit)
{
    // Each edit is a new source for NVRTC and every cache.
    return "// edit " + std::to_string(edit) + " " + std::to_string(Clock::now().time_since_epoch().count())
        + "\n__global__ void add_vectors(const float* a, const float* b, float* c, int n)\n"
          "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n";
}

kw::Document addDocument(const std::string& source, const std::string& n, int repeats)
{
    json doc
        = {{"format", "kernel-workbench"},
           {"version", 1},
           {"source", source},
           {"kernel", "add_vectors"},
           {"variables", json::parse("[[\"n\", \"" + n + "\"]]")},
           {"buffers",
            {{{"name", "a"},
              {"dtype", "f32"},
              {"count", "n"},
              {"init", {{"kind", "uniform"}, {"seed", 1}}},
              {"direction", "in"}},
             {{"name", "b"},
              {"dtype", "f32"},
              {"count", "n"},
              {"init", {{"kind", "uniform"}, {"seed", 2}}},
              {"direction", "in"}},
             {{"name", "c"}, {"dtype", "f32"}, {"count", "n"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}}}},
           {"args",
            {{{"name", "a"}, {"buffer", "a"}},
             {{"name", "b"}, {"buffer", "b"}},
             {{"name", "c"}, {"buffer", "c"}},
             {{"name", "n"}, {"type", "i32"}, {"value", "n"}}}},
           {"launch", {{"grid", {"cdiv(n, 256)", 1, 1}}, {"block", {256, 1, 1}}}},
           {"run", {{"warmup", repeats > 0 ? 3 : 0}, {"repeats", repeats}}}};
    return kw::DocumentReader::readString(doc.dump());
}

const kw::HostBuffer& bufferNamed(const kw::RunResult& r, const std::string& name)
{
    for (const kw::BufferResult& b : r.buffers)
        if (b.name == name)
            return b.data;
    throw std::runtime_error("no buffer " + name + " in the result");
}

// A failed run or a wrong output stops the benchmark: its time must not count.
void requireAddOutput(const kw::RunResult& r, const std::string& what)
{
    if (!r.ok)
        throw std::runtime_error(what + " failed: " + kw::toJson(r).dump());
    const kw::HostBuffer& a = bufferNamed(r, "a");
    const kw::HostBuffer& b = bufferNamed(r, "b");
    const kw::HostBuffer& c = bufferNamed(r, "c");
    if (c.count() != a.count() || c.count() != b.count() || c.count() == 0)
        throw std::runtime_error(what + ": buffers of different lengths");
    const auto* pa = reinterpret_cast<const float*>(a.data());
    const auto* pb = reinterpret_cast<const float*>(b.data());
    const auto* pc = reinterpret_cast<const float*>(c.data());
    for (std::size_t i = 0; i < c.count(); ++i)
        if (pc[i] != pa[i] + pb[i])
            throw std::runtime_error(what + ": c[" + std::to_string(i) + "] = " + std::to_string(pc[i]) + ", expected "
                                     + std::to_string(pa[i] + pb[i]));
}

double emptyLaunchMicroseconds(const kw::cuda::CudaBackend& backend, kw::Compiler& compiler, int launches)
{
    kw::CompileRequest req;
    req.source = "__global__ void empty() {}\n";
    req.options.arch = backend.compileArch();
    req.nameExpressions = {"empty"};
    kw::CompileResult r = compiler.compile(req);
    if (!r.ok)
        throw std::runtime_error("the empty kernel did not compile: " + r.log);
    const auto& api = kw::cuda::DriverApi::get();
    kw::cuda::Module module(r.cubin.empty() ? static_cast<const void*>(r.ptx.c_str()) : r.cubin.data(), "empty");
    CUfunction f = module.function(r.loweredNames.at("empty"));
    auto require = [](CUresult status, const char* call) {
        if (status != CUDA_SUCCESS)
            throw std::runtime_error(std::string("empty launch: ") + call + " returned " + std::to_string(int(status)));
    };
    for (int i = 0; i < 100; ++i)
        require(api.cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr), "cuLaunchKernel");
    require(api.cuCtxSynchronize(), "cuCtxSynchronize");
    const auto t0 = Clock::now();
    for (int i = 0; i < launches; ++i)
        require(api.cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr), "cuLaunchKernel");
    require(api.cuCtxSynchronize(), "cuCtxSynchronize");
    return msSince(t0) * 1000.0 / launches;
}

} // namespace

int main(int argc, char** argv)
{
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    try {
        kw::cuda::CudaBackend backend(0);
        auto cache = std::make_shared<kw::ProgramCache>(std::filesystem::path(), 64); // memory only
        kw::Compiler compiler(cache);
        kw::PreparedRunCache inputs; // as a serve process keeps it
        kw::RunEngine engine(compiler, backend, &inputs);
        json out;
        out["device"] = backend.device().name;

        // Compile: a new source in a warm process, then the same source again (cache hit).
        {
            kw::CompileRequest warm;
            warm.source = addSource(-1);
            warm.options.arch = backend.compileArch();
            warm.nameExpressions = {"add_vectors"};
            if (!compiler.compile(warm).ok) // loads NVRTC and its built-in headers
                throw std::runtime_error("add_vectors did not compile");
            std::vector<double> fresh, hit;
            for (int i = 0; i < (quick ? 3 : 10); ++i) {
                kw::CompileRequest req = warm;
                req.source = addSource(i);
                auto t0 = Clock::now();
                kw::CompileResult a = compiler.compile(req);
                fresh.push_back(msSince(t0));
                t0 = Clock::now();
                kw::CompileResult b = compiler.compile(req);
                hit.push_back(msSince(t0));
                if (!a.ok || a.cacheHit || a.ptx.empty())
                    throw std::runtime_error("a new source was not compiled: " + a.log);
                if (!b.ok || !b.cacheHit || b.ptx != a.ptx)
                    throw std::runtime_error("the second compile of a source was not a cache hit");
            }
            out["compile_new_source_ms"] = kw::TimingStats::compute(fresh).median;
            out["compile_cache_hit_ms"] = kw::TimingStats::compute(hit).median;
        }

        out["empty_launch_us"] = emptyLaunchMicroseconds(backend, compiler, quick ? 2000 : 20000);

        // Edit and re-run in process: new source, compile, upload, one launch, download.
        {
            std::vector<double> wall;
            for (int i = 0; i < (quick ? 3 : 10); ++i) {
                kw::Document doc = addDocument(addSource(1000 + i), "1 << 20", 0);
                const auto t0 = Clock::now();
                kw::RunResult r = engine.run(doc);
                wall.push_back(msSince(t0));
                requireAddOutput(r, "add_vectors 2^20");
            }
            out["edit_rerun_in_process_ms"] = kw::TimingStats::compute(wall).median;
        }

        // Kernel time at 2^26 (event timing, median of 20 repeats).
        {
            kw::RunResult r = engine.run(addDocument(addSource(-2), "1 << 26", 20));
            requireAddOutput(r, "add_vectors 2^26");
            if (r.timings.kernelMs.size() != 20 || !(r.timings.medianMs > 0))
                throw std::runtime_error("add_vectors 2^26: no kernel times");
            out["add_2p26_kernel_median_ms"] = r.timings.medianMs;
            out["add_2p26_gbps"] = r.timings.gbps;
        }

        // 1 GiB upload through pinned staging (best of 3; the first also pins the ring).
        {
            json doc = {{"format", "kernel-workbench"},
                        {"version", 1},
                        {"source", "__global__ void touch(unsigned* p) { p[blockIdx.x * 256 + threadIdx.x] += 1u; }"},
                        {"kernel", "touch"},
                        {"buffers",
                         {{{"name", "p"},
                           {"dtype", "u32"},
                           {"count", "1 << 28"},
                           {"init", {{"kind", "fill"}, {"value", "7"}}},
                           {"direction", "inout"}}}},
                        {"args", {{{"name", "p"}, {"buffer", "p"}}}},
                        {"launch", {{"grid", {"(1 << 28) / 256", 1, 1}}, {"block", {256, 1, 1}}}},
                        {"run", {{"warmup", 0}, {"repeats", 0}}}};
            const kw::Document d = kw::DocumentReader::readString(doc.dump());
            double up = 1e30, down = 1e30;
            for (int i = 0; i < 3; ++i) {
                kw::RunResult r = engine.run(d);
                if (!r.ok || !(r.timings.h2dMs > 0) || !(r.timings.d2hMs > 0))
                    throw std::runtime_error("1 GiB round trip failed: " + kw::toJson(r).dump());
                const kw::HostBuffer& p = bufferNamed(r, "p");
                const auto* words = reinterpret_cast<const std::uint32_t*>(p.data());
                if (p.count() != (std::size_t(1) << 28))
                    throw std::runtime_error("1 GiB round trip: wrong length");
                for (std::size_t k = 0; k < p.count(); ++k)
                    if (words[k] != 8u)
                        throw std::runtime_error("1 GiB round trip: p[" + std::to_string(k)
                                                 + "] = " + std::to_string(words[k]) + ", expected 8");
                up = std::min(up, r.timings.h2dMs);
                down = std::min(down, r.timings.d2hMs);
            }
            out["upload_1gib_ms"] = up;
            out["upload_1gib_gbps"] = double(1ull << 30) / (up * 1e-3) / 1e9;
            out["download_1gib_gbps"] = double(1ull << 30) / (down * 1e-3) / 1e9;
        }
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kwb-bench: %s\n", e.what());
        return 1;
    }
}
