#include "run/TimingDetailText.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kw {

namespace {

std::string methodWords(const TimingDetail& d)
{
    const std::string note = d.methodNote.empty() ? std::string() : " (" + d.methodNote + ")";
    if (d.method == "cupti profiler")
        return "Nsight Compute's gpu__time_duration, through CUPTI's profiler (the GPU's start and end of each "
               "launch)";
    if (d.method == "cupti")
        return "CUPTI kernel records (the GPU's start and end of each launch)" + note;
    if (d.method == "cuda events")
        return "CUDA events around each launch" + note;
    if (d.method == "host clock")
        return "the host's clock around the simulator's run (CPU time, not a GPU's)";
    return d.method;
}

} // namespace

std::string TimingDetailText::describe(const RunTimings& t)
{
    const TimingDetail& d = t.detail;
    if (d.method.empty())
        return "";
    std::string text = methodWords(d);
    if (t.kernelMs.size() > 1)
        text += fmt::format("; median {:.4f} ms, {:.0f} % interval of the median [{:.4f}, {:.4f}] ms (order "
                            "statistics), {} runs",
                            t.medianMs, 100 * d.ciLevel, d.ciLowMs, d.ciHighMs, t.kernelMs.size());
    if (d.method != "host clock") {
        text += fmt::format("; {} warm-up run{}{}", d.warmupRuns, d.warmupRuns == 1 ? "" : "s",
                            d.warmupRuns == 0     ? ""
                                : d.warmupSettled ? " (settled)"
                                                  : " (not settled)");
        text += d.l2Flushed ? "; L2 flushed before each run" : "; L2 not flushed";
        if (d.smClockMaxMhz > 0)
            text += fmt::format("; SM clock {} MHz before, {} MHz after (max {} MHz)", d.smClockBeforeMhz,
                                d.smClockAfterMhz, d.smClockMaxMhz);
        else if (t.kernelMs.size() > 1)
            text += "; SM clock unknown (no NVML)";
    }
    return text;
}

std::string TimingDetailText::clockWarning(const TimingDetail& d)
{
    if (d.smClockMaxMhz <= 0 || d.smClockBeforeMhz <= 0)
        return "";
    const int low = std::min(d.smClockBeforeMhz, d.smClockAfterMhz);
    // Within 5 % of the maximum counts as at its clock (boost steps are ~15 MHz).
    if (double(low) >= 0.95 * d.smClockMaxMhz
        && std::abs(d.smClockAfterMhz - d.smClockBeforeMhz) <= 0.05 * d.smClockMaxMhz)
        return "";
    return fmt::format(
        "the SM clock was {} MHz before and {} MHz after the timed runs, below its {} MHz maximum "
        "(power or thermal limits, or a clock still rising): the times may be slower than the GPU's best",
        d.smClockBeforeMhz, d.smClockAfterMhz, d.smClockMaxMhz);
}

} // namespace kw
