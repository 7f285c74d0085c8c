#pragma once
// The human-readable text kwb-run prints for what it compiled and ran: compile
// diagnostics, a compile's kernels and summary line, a run's summary (printf output,
// warnings, device, launch, then the fault or the timings and checks), and what a
// runner's connection carried.
#include "compile/CompileResult.hpp"
#include "compile/KernelFootprint.hpp"
#include "launch/RunResult.hpp"

#include <cstdint>
#include <string>

namespace kw {

class SummaryText {
public:
    // "file:line:column: severity: message", each note indented below.
    static std::string diagnostics(const CompileResult& r);
    // The diagnostics, "kernel name(params)" for each kernel, "compiled for ARCH in N ms".
    static std::string compile(const CompileResult& r);
    // "occupancy 50 % on NAME (ID): ..." for a launch of `threadsPerBlock` threads taking
    // `dynamicShared` bytes besides the kernel's own.
    static std::string occupancy(const DeviceInfo& device, std::uint64_t threadsPerBlock, std::size_t dynamicShared,
                                 const KernelFootprint& kernel);
    // The kernel's printf lines first, each behind "| " with control characters escaped
    // (TerminalText), so no printed line can pass for the summary below it or drive the
    // terminal; `rawPrintf` gives them as the kernel printed them. Then the summary.
    static std::string run(const RunResult& r, bool rawPrintf = false);
    // A document of steps: each step with its time and share of the kernels' time, its
    // checks below it; why the steps stopped, if they did. Part of run().
    static std::string steps(const RunResult& r);
    // "check    c = a + b: passed (...)" for each, mismatches below, behind `indent`.
    static std::string checks(const std::vector<CheckResult>& results, const std::string& indent);
    // What a --check found, one line each ("" when no check ran).
    static std::string findings(const RunResult& r);
    // "runner   COMMAND: sent 1.2 KiB, received 3.4 KiB".
    static std::string runner(const std::string& command, std::uint64_t sent, std::uint64_t received);
    // "512 B", "1.5 KiB", "2.0 MiB".
    static std::string bytes(std::uint64_t n);
};

} // namespace kw
