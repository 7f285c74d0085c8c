// Recompiles of a kernel that includes <cuda_fp16.h> and <cuda/std/complex>, through
// `kwb-run serve` as the window's live compile sends them (docs/benchmarks.md, "Compile"):
// each edit changes a constant after the includes, so the program cache never answers.
// Side by side in one run: a runner whose compile worker stays up with NVRTC's precompiled
// headers (the default), and one that starts a worker per compile (KWB_PCH=0), as before.
// The goal is a median of at most 150 ms for every recompile after the first.
// Usage: bench_compile [EDITS]   (default 15)
#include "doc/DocumentReader.hpp"
#include "serve/ServeClient.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string source(int edit)
{
    return "#include <cuda_fp16.h>\n#include <cuda/std/complex>\n"
           "__global__ void scale(const __half* a, float* b, int n)\n{\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    cuda::std::complex<float> c(1.0f, 2.0f);\n"
           "    if (i < n) b[i] = __half2float(a[i]) * c.imag() * "
        + std::to_string(edit) + ".0f;\n}\n";
}

kw::Document document(const fs::path& dir)
{
    fs::create_directories(dir);
    const nlohmann::json doc
        = {{"format", "kernel-workbench"},
           {"version", 1},
           {"title", "compile"},
           {"source", source(0)},
           {"kernel", "scale"},
           {"buffers",
            {{{"name", "a"}, {"dtype", "f16"}, {"count", "32"}, {"init", {{"kind", "zeros"}}}, {"direction", "in"}},
             {{"name", "b"}, {"dtype", "f32"}, {"count", "32"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}}}},
           {"args",
            {{{"name", "a"}, {"buffer", "a"}},
             {{"name", "b"}, {"buffer", "b"}},
             {{"name", "n"}, {"type", "i32"}, {"value", "32"}}}},
           {"launch", {{"grid", {1, 1, 1}}, {"block", {32, 1, 1}}}}};
    std::ofstream(dir / "compile.kwb") << doc.dump();
    return kw::DocumentReader::readFile(dir / "compile.kwb");
}

struct Series {
    double first = 0;
    std::vector<double> rest;
    std::string pch; // what the last compile said of precompiled headers
};

Series measure(const std::string& environment, kw::Document doc, int edits, const fs::path& cache)
{
    fs::remove_all(cache);
    const std::string kwbRun = (fs::path(KW_BIN_DIR) / "kwb-run").string();
    kw::ServeClient client("env KWB_CACHE_DIR=" + cache.string() + " " + environment + " " + kwbRun + " serve");
    Series s;
    for (int edit = 1; edit <= edits; ++edit) {
        doc.source = source(edit);
        const auto t0 = Clock::now();
        const kw::CompileResult r = client.compile(doc, "");
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (!r.ok || r.cacheHit) {
            std::fprintf(stderr, "bench_compile: edit %d %s\n%s\n", edit, r.ok ? "came from the cache" : "failed",
                         r.log.c_str());
            std::exit(1);
        }
        (edit == 1 ? s.first : s.rest.emplace_back()) = ms;
        s.pch = r.pch;
    }
    return s;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : (v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2);
}

} // namespace

int main(int argc, char** argv)
{
    const int edits = argc > 1 ? std::max(3, std::atoi(argv[1])) : 15;
    const fs::path dir = fs::temp_directory_path() / "kw_bench_compile";
    const kw::Document doc = document(dir);
    const Series plain = measure("KWB_PCH=0", doc, edits, dir / "cache-plain");
    const Series warm = measure("", doc, edits, dir / "cache-pch");
    std::printf("%-44s %10s %12s %12s\n", "recompile through kwb-run serve", "first ms", "p50 after", "max after");
    std::printf("%-44s %10.1f %12.1f %12.1f\n", "a worker per compile (KWB_PCH=0)", plain.first, median(plain.rest),
                *std::max_element(plain.rest.begin(), plain.rest.end()));
    std::printf("%-44s %10.1f %12.1f %12.1f\n", ("warm worker, precompiled headers " + warm.pch).c_str(), warm.first,
                median(warm.rest), *std::max_element(warm.rest.begin(), warm.rest.end()));
    const double ratio = median(warm.rest) / median(plain.rest);
    std::printf("ratio p50 warm/plain %.3f; goal p50 <= 150 ms: %s\n", ratio,
                median(warm.rest) <= 150.0 ? "met" : "NOT met");
    fs::remove_all(dir);
    return warm.pch == "used" ? 0 : 1; // a row that measured no PCH use measured nothing
}
