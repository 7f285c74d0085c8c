// How fast the core's per-element work and the program cache are, on the CPU: the
// speed claims the unit tests used to assert. Every row checks its result in full
// before its time counts, and prints met/MISSED against its target.
// Usage: bench_core            exit 0 when every target is met, 1 when one is missed,
//                              2 when a result is wrong (then no time is reported).
#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/CheckEvaluator.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace kw;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Table {
    int status = 0;
    void row(const char* what, double ms, double targetMs)
    {
        const bool met = ms <= targetMs;
        std::printf("%-52s %10.3f ms   target <= %8.3f ms   %s\n", what, ms, targetMs, met ? "met" : "MISSED");
        if (!met && status == 0)
            status = 1;
    }
    void wrong(const char* what, const std::string& why)
    {
        std::printf("%-52s WRONG: %s\n", what, why.c_str());
        status = 2;
    }
};

HostBuffer filled(DType t, std::size_t n, const std::function<double(std::size_t)>& f)
{
    HostBuffer b(t, n);
    for (std::size_t i = 0; i < n; ++i)
        b.set(i, f(i));
    return b;
}

void checkEvaluation(Table& table)
{
    const char* what = "check a * b + 1 over 2^20 f32 (median of 5)";
    const std::size_t n = 1u << 20;
    const HostBuffer a = filled(DType::F32, n, [](std::size_t i) { return double(i % 1000); });
    const HostBuffer b = filled(DType::F32, n, [](std::size_t) { return 0.5; });
    const HostBuffer c = filled(DType::F32, n, [&](std::size_t i) { return a.at(i) * b.at(i) + 1; });
    VariableScope scope;
    const CheckEvaluator ev(scope, {{"a", &a}, {"b", &b}, {"c", &c}});
    CheckSpec spec;
    spec.buffer = "c";
    spec.expect = "a * b + 1";
    std::vector<double> times;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = Clock::now();
        const CheckResult r = ev.evaluate(spec, "checks[0]");
        times.push_back(msSince(t0));
        if (!r.passed || r.checked != n || r.mismatches != 0)
            return table.wrong(
                what, "checked " + std::to_string(r.checked) + ", " + std::to_string(r.mismatches) + " mismatches");
    }
    table.row(what, median(times), 1000);
}

void expressionInitialiser(Table& table)
{
    const char* what = "initialiser sin(i * 0.001) * n + (i % 7), 2^20 f32";
    const VariableScope scope = VariableScope::evaluate({{"n", "12"}});
    const BufferFactory factory(scope, fs::temp_directory_path(), kw::Trust::Untrusted);
    BufferSpec spec;
    spec.name = "b";
    spec.dtype = DType::F32;
    spec.count = "1<<20";
    spec.init.kind = Initialiser::Kind::Expression;
    spec.init.expression = "sin(i * 0.001) * n + (i % 7)";
    std::vector<double> times;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = Clock::now();
        const NdArray a = factory.create(spec, "buffers[0]");
        times.push_back(msSince(t0));
        if (a.data.count() != (1u << 20))
            return table.wrong(what, "count " + std::to_string(a.data.count()));
        for (std::size_t i = 0; i < a.data.count(); ++i)
            if (a.data.at(i) != double(float(std::sin(double(i) * 0.001) * 12 + double(i % 7))))
                return table.wrong(what, "element " + std::to_string(i));
    }
    table.row(what, median(times), 1000);
}

void programCacheHits(Table& table)
{
    const fs::path dir = fs::temp_directory_path() / ("kw_bench_core_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "src");
    std::ofstream(dir / "src" / "header.h") << "#define SCALE 2.0f\n";
    CompileRequest req;
    req.source = "#include \"header.h\"\n"
                 "__global__ void add(float* a, const float* b, int n)\n"
                 "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += b[i] * SCALE; }\n";
    req.baseDir = dir / "src";

    Compiler compiler(std::make_shared<ProgramCache>(dir / "cache"));
    auto t0 = Clock::now();
    const CompileResult cold = compiler.compile(req);
    const double coldMs = msSince(t0);
    if (!cold.ok || cold.cacheHit || cold.ptx.find(".entry") == std::string::npos) {
        table.wrong("NVRTC cold compile", cold.log);
        fs::remove_all(dir);
        return;
    }
    std::printf("%-52s %10.3f ms   (information)\n", "NVRTC cold compile, include + cache store", coldMs);

    // Wall time of the whole compile() call, the cache lookup included.
    std::vector<double> memory, disk;
    for (int i = 0; i < 200; ++i) {
        t0 = Clock::now();
        const CompileResult r = compiler.compile(req);
        memory.push_back(msSince(t0));
        if (!r.cacheHit || r.ptx != cold.ptx) {
            table.wrong("cache hit from memory", "not a hit, or other PTX");
            fs::remove_all(dir);
            return;
        }
    }
    for (int i = 0; i < 20; ++i) {
        t0 = Clock::now();
        Compiler fresh(std::make_shared<ProgramCache>(dir / "cache"));
        const CompileResult r = fresh.compile(req);
        disk.push_back(msSince(t0));
        if (!r.cacheHit || r.ptx != cold.ptx) {
            table.wrong("cache hit from disk", "not a hit, or other PTX");
            fs::remove_all(dir);
            return;
        }
    }
    table.row("cache hit from memory, wall time (median of 200)", median(memory), 1);
    table.row("cache hit from disk, new cache, wall (median of 20)", median(disk), 1);
    fs::remove_all(dir);
}

} // namespace

int main()
{
    Table table;
    try {
        checkEvaluation(table);
        expressionInitialiser(table);
        programCacheHits(table);
    } catch (const Error& e) {
        std::printf("error: %s\n", e.what());
        return 2;
    }
    return table.status;
}
