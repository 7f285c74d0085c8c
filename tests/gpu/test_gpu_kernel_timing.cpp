// Kernel times on a GPU (docs/benchmarks.md, "How kernels are timed"): Nsight Compute's
// gpu__time_duration through CUPTI's range profiler where CUPTI is installed, its activity
// records where the profiler is not allowed (KWB_CUPTI=activity stands for that), CUDA
// events where CUPTI is missing (KWB_CUPTI=0 stands for that), with the method named; the median's interval, the
// warm-up, the L2 flush and the SM clock in the result, in kwb-run's JSON and summary.
// How close the times come to Nsight Compute's is tests/bench/bench_kernel_time.py's
// business.
#include "compile/Compiler.hpp"
#include "cuda/CudaBackend.hpp"
#include "cuda/CuptiKernelTimes.hpp"
#include "cuda/CuptiRangeTimes.hpp"
#include "doc/DocumentReader.hpp"
#include "gpu/GpuTestSupport.hpp"
#include "run/RunEngine.hpp"
#include "serve/ResultJson.hpp"
#include "support/TempDir.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace kwtest;
using nlohmann::json;

namespace {

// add_vectors on 2^24 floats: about 60 µs on an H100, well above the auto L2 flush's floor.
json addDocument(const std::string& n, int repeats)
{
    json doc = loadSample("add_vectors.kwb");
    doc["variables"] = json::array({json::array({"n", n}), json::array({"block", "256"})});
    doc["run"] = {{"warmup", 2}, {"repeats", repeats}};
    doc.erase("checks");
    return doc;
}

kw::RunResult runHere(const json& doc)
{
    kw::Compiler compiler;
    kw::cuda::CudaBackend backend(0);
    kw::RunEngine engine(compiler, backend);
    return engine.run(kw::DocumentReader::readString(doc.dump()));
}

bool cuptiInstalled()
{
    for (const char* p : {"/usr/local/cuda/lib64/libcupti.so", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"})
        if (std::filesystem::exists(p))
            return true;
    return false;
}

json kwbRunJson(const std::filesystem::path& doc, const std::string& extra)
{
    const std::string cmd = extra + " " KW_BIN_DIR "/kwb-run run " + doc.string() + " --device cuda:0 --json";
    std::FILE* p = ::popen(cmd.c_str(), "r");
    std::string out;
    char buf[65536];
    for (std::size_t n; p && (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        out.append(buf, n);
    if (p)
        ::pclose(p);
    return json::parse(out);
}

// A driver may keep the performance counters for administrators; then the profiler
// refuses, the activity records time the kernels, and the note says why.
bool countersRestricted(const std::string& methodNote)
{
    return methodNote.find("INSUFFICIENT_PRIVILEGES") != std::string::npos;
}

} // namespace

TEST(GpuKernelTiming, TheProfilerTimesEachTimedLaunchAndTheResultSaysHow)
{
    KW_REQUIRE_GPU();
    if (!cuptiInstalled())
        GTEST_SKIP() << "no libcupti in /usr/local/cuda: the events fallback is tested below";
    ASSERT_NE(kw::cuda::CuptiRangeTimes::get(), nullptr) << kw::cuda::CuptiRangeTimes::unavailableReason();
    const kw::RunResult r = runHere(addDocument("1 << 24", 15));
    ASSERT_TRUE(r.ok) << kw::toJson(r).dump(2);
    const kw::RunTimings& t = r.timings;
    const kw::TimingDetail& d = t.detail;
    if (countersRestricted(d.methodNote))
        GTEST_SKIP() << "this machine keeps the GPU's counters for administrators: " << d.methodNote;
    EXPECT_EQ(d.method, "cupti profiler") << d.methodNote;
    EXPECT_EQ(d.methodNote, "");
    ASSERT_EQ(t.kernelMs.size(), 15u);
    for (double ms : t.kernelMs)
        EXPECT_GT(ms, 0.005) << "2^24 floats cannot be added in under 5 µs";
    EXPECT_LE(t.minMs, t.medianMs);
    EXPECT_LE(d.ciLowMs, t.medianMs);
    EXPECT_GE(d.ciHighMs, t.medianMs);
    EXPECT_GE(d.ciLevel, 0.95);
    EXPECT_TRUE(d.l2Flushed) << "a kernel of " << t.medianMs << " ms is flushed for by default";
    EXPECT_GE(d.warmupRuns, 2);
    // NVML comes with the driver: the clock must be known on a GPU machine.
    EXPECT_GT(d.smClockMaxMhz, 0);
    EXPECT_GT(d.smClockBeforeMhz, 0);
    EXPECT_GT(d.smClockAfterMhz, 0);
    EXPECT_LE(d.smClockAfterMhz, d.smClockMaxMhz + 50);
    // The result as kwb-run --json and the protocol carry it.
    EXPECT_EQ(kw::toJson(r).at("timings").at("method"), "cupti profiler");
    EXPECT_EQ(kw::toJson(r).at("timings").at("runs"), 15);
}

// Where the profiler may not run, the activity records time the same launches, and the
// two agree: both are the GPU's start and end of the kernel (the records sit up to a
// couple of µs above, docs/benchmarks.md).
TEST(GpuKernelTiming, TheActivityRecordsStandInForTheProfilerAndAgreeWithIt)
{
    KW_REQUIRE_GPU();
    if (!cuptiInstalled())
        GTEST_SKIP() << "no libcupti in /usr/local/cuda: nothing to compare";
    const auto folder = kw::test::freshDir("kw_kernel_records", "doc");
    const auto path = folder / "add.kwb";
    std::ofstream(path) << addDocument("1 << 24", 15).dump(1);
    const json profiler = kwbRunJson(path, "");
    const json records = kwbRunJson(path, "KWB_CUPTI=activity");
    ASSERT_TRUE(records.at("ok").get<bool>()) << records.dump(2);
    EXPECT_EQ(records.at("timings").at("method"), "cupti") << records.at("timings").dump(2);
    EXPECT_EQ(records.at("timings").at("kernel_ms").size(), 15u);
    if (countersRestricted(profiler.at("timings").value("method_note", "")))
        GTEST_SKIP() << "this machine keeps the GPU's counters for administrators";
    ASSERT_EQ(profiler.at("timings").at("method"), "cupti profiler") << profiler.at("timings").dump(2);
    const double p = profiler.at("timings").at("median_ms").get<double>();
    const double a = records.at("timings").at("median_ms").get<double>();
    EXPECT_NEAR(a / p, 1.0, 0.03) << "profiler " << p * 1e3 << " µs, records " << a * 1e3 << " µs";
}

TEST(GpuKernelTiming, TheFlushFollowsTheDocumentAndTinyKernelsAreNotFlushed)
{
    KW_REQUIRE_GPU();
    json doc = addDocument("1 << 24", 5);
    doc["run"]["l2_flush"] = false;
    EXPECT_FALSE(runHere(doc).timings.detail.l2Flushed);
    json tiny = addDocument("256", 5);
    const kw::RunResult r = runHere(tiny);
    ASSERT_TRUE(r.ok);
    EXPECT_FALSE(r.timings.detail.l2Flushed) << "a kernel of " << r.timings.medianMs << " ms";
    tiny["run"]["l2_flush"] = true;
    EXPECT_TRUE(runHere(tiny).timings.detail.l2Flushed);
}

TEST(GpuKernelTiming, WithoutCuptiEventsTimeTheLaunchesAndTheResultSaysSo)
{
    KW_REQUIRE_GPU();
    const auto folder = kw::test::freshDir("kw_kernel_timing", "doc");
    const auto path = folder / "add.kwb";
    std::ofstream(path) << addDocument("1 << 22", 7).dump(1);

    const json plain = kwbRunJson(path, "");
    const json events = kwbRunJson(path, "KWB_CUPTI=0");
    ASSERT_TRUE(events.at("ok").get<bool>()) << events.dump(2);
    const json& t = events.at("timings");
    EXPECT_EQ(t.at("method"), "cuda events");
    EXPECT_NE(t.at("method_note").get<std::string>().find("KWB_CUPTI=0"), std::string::npos) << t.dump(2);
    EXPECT_EQ(t.at("kernel_ms").size(), 7u);
    EXPECT_EQ(t.at("runs"), 7);
    ASSERT_EQ(t.at("median_ci_ms").size(), 2u);
    EXPECT_TRUE(t.at("sm_clock_mhz").contains("before"));
    if (cuptiInstalled() && !countersRestricted(plain.at("timings").value("method_note", "")))
        EXPECT_EQ(plain.at("timings").at("method"), "cupti profiler") << plain.at("timings").dump(2);
}

// Neither CUPTI source may cost the kernel anything: CONCURRENT_KERNEL tracing
// instruments the kernel and made this reduction about 10 % slower on an H100. The GPU's
// own times of the kernel can only be shorter than events taken around the same launches
// (those add the launch's front end); 1 % is left for noise.
TEST(GpuKernelTiming, CuptiDoesNotSlowAMemoryBoundKernel)
{
    KW_REQUIRE_GPU();
    if (!cuptiInstalled())
        GTEST_SKIP() << "no libcupti in /usr/local/cuda: nothing to compare";
    const auto folder = kw::test::freshDir("kw_cupti_cost", "doc");
    const auto path = folder / "reduce.kwb";
    json doc = loadSample("reduction_shuffle.kwb");
    doc["variables"] = json::array(
        {json::array({"n", "1 << 25"}), json::array({"block", "512"}), json::array({"blocks", "n / block"})});
    doc["buffers"][0]["init"] = {{"kind", "uniform"}, {"low", 0}, {"high", 200}, {"seed", 1}};
    doc["run"] = {{"warmup", 3}, {"repeats", 20}, {"l2_flush", true}};
    doc.erase("checks");
    std::ofstream(path) << doc.dump(1);

    for (int round = 0; round < 2; ++round) {
        const json profiler = kwbRunJson(path, "");
        const json records = kwbRunJson(path, "KWB_CUPTI=activity");
        const json events = kwbRunJson(path, "KWB_CUPTI=0");
        ASSERT_EQ(records.at("timings").at("method"), "cupti") << records.at("timings").dump(2);
        ASSERT_EQ(events.at("timings").at("method"), "cuda events");
        const double withEvents = events.at("timings").at("median_ms").get<double>();
        for (const json* cupti : {&profiler, &records}) {
            if (countersRestricted(cupti->at("timings").value("method_note", "")))
                continue;
            const double withCupti = cupti->at("timings").at("median_ms").get<double>();
            EXPECT_LE(withCupti, withEvents * 1.01)
                << cupti->at("timings").at("method") << " " << withCupti * 1e3 << " µs, events " << withEvents * 1e3
                << " µs (round " << round << ")";
        }
    }
}
