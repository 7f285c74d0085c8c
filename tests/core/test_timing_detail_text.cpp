// TimingDetailText: the one line that says how a run's kernel times were taken (kwb-run's
// summary, the Timings panel), and the warning for an SM clock below its maximum.
#include "run/SummaryText.hpp"
#include "run/TimingDetailText.hpp"

#include <gtest/gtest.h>

using kw::RunTimings;
using kw::TimingDetail;
using kw::TimingDetailText;

namespace {

RunTimings cuptiTimings()
{
    RunTimings t;
    t.kernelMs = {0.25, 0.24, 0.26, 0.25, 0.25, 0.25, 0.24, 0.25, 0.26, 0.25};
    t.medianMs = 0.25;
    TimingDetail& d = t.detail;
    d.method = "cupti";
    d.ciLowMs = 0.24;
    d.ciHighMs = 0.26;
    d.ciLevel = 0.979;
    d.warmupRuns = 4;
    d.warmupSettled = true;
    d.l2Flushed = true;
    d.smClockBeforeMhz = 1980;
    d.smClockAfterMhz = 1965;
    d.smClockMaxMhz = 1980;
    return t;
}

} // namespace

TEST(TimingDetailText, SaysTheMethodIntervalWarmupFlushAndClock)
{
    const std::string text = TimingDetailText::describe(cuptiTimings());
    EXPECT_EQ(text,
              "CUPTI kernel records (the GPU's start and end of each launch); median 0.2500 ms, 98 % interval of the "
              "median [0.2400, 0.2600] ms (order statistics), 10 runs; 4 warm-up runs (settled); L2 flushed before "
              "each run; SM clock 1980 MHz before, 1965 MHz after (max 1980 MHz)");
}

TEST(TimingDetailText, EventsSayWhyAndAnUnknownClockSaysSo)
{
    RunTimings t = cuptiTimings();
    t.detail.method = "cuda events";
    t.detail.methodNote = "CUPTI unavailable: KWB_CUPTI=0";
    t.detail.l2Flushed = false;
    t.detail.warmupSettled = false;
    t.detail.smClockMaxMhz = 0;
    const std::string text = TimingDetailText::describe(t);
    EXPECT_NE(text.find("CUDA events around each launch (CUPTI unavailable: KWB_CUPTI=0)"), std::string::npos) << text;
    EXPECT_NE(text.find("(not settled)"), std::string::npos) << text;
    EXPECT_NE(text.find("L2 not flushed"), std::string::npos) << text;
    EXPECT_NE(text.find("SM clock unknown"), std::string::npos) << text;
    EXPECT_EQ(TimingDetailText::describe(RunTimings{}), "") << "an older runner's result carries no detail";
}

TEST(TimingDetailText, TheProfilersMetricIsNamedAndRecordsSayWhyTheProfilerWasNotUsed)
{
    RunTimings t = cuptiTimings();
    t.detail.method = "cupti profiler";
    EXPECT_EQ(TimingDetailText::describe(t).rfind("Nsight Compute's gpu__time_duration, through CUPTI's profiler (the "
                                                  "GPU's start and end of each launch); median 0.2500 ms",
                                                  0),
              0u)
        << TimingDetailText::describe(t);
    t.detail.method = "cupti";
    t.detail.methodNote = "CUPTI's profiler refused: cuptiRangeProfilerEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
    EXPECT_NE(TimingDetailText::describe(t).find("CUPTI kernel records (the GPU's start and end of each launch) "
                                                 "(CUPTI's profiler refused: cuptiRangeProfilerEnable: "
                                                 "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); median"),
              std::string::npos)
        << TimingDetailText::describe(t);
}

TEST(TimingDetailText, TheSimulatorsHostClockHasNoGpuConditions)
{
    RunTimings t = cuptiTimings();
    t.detail = {};
    t.detail.method = "host clock";
    const std::string text = TimingDetailText::describe(t);
    EXPECT_EQ(text.find("L2"), std::string::npos) << text;
    EXPECT_EQ(text.find("SM clock"), std::string::npos) << text;
}

TEST(TimingDetailText, AClockBelowItsMaximumOrMovingIsWarnedOf)
{
    TimingDetail d = cuptiTimings().detail;
    EXPECT_EQ(TimingDetailText::clockWarning(d), "") << "1980 and 1965 of 1980 MHz is at its clock";
    d.smClockBeforeMhz = 1410;
    const std::string low = TimingDetailText::clockWarning(d);
    EXPECT_NE(low.find("1410 MHz before and 1965 MHz after"), std::string::npos) << low;
    d.smClockBeforeMhz = d.smClockAfterMhz = 1700;
    EXPECT_NE(TimingDetailText::clockWarning(d), "") << "steady but 14 % below the maximum";
    d.smClockMaxMhz = 0;
    EXPECT_EQ(TimingDetailText::clockWarning(d), "") << "unknown clock: nothing to say";
}

TEST(TimingDetailText, TheSummaryCarriesTheLine)
{
    kw::RunResult r;
    r.ok = true;
    r.timings = cuptiTimings();
    const std::string summary = kw::SummaryText::run(r);
    EXPECT_NE(summary.find("timing   CUPTI kernel records"), std::string::npos) << summary;
}
