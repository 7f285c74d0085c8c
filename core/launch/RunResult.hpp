#pragma once
// Everything one run produces. serve/ResultJson gives its JSON form (result.json and
// the serve protocol's run result, docs/protocol.md).
#include "compile/CompileResult.hpp"
#include "launch/LaunchTypes.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kw {

struct PrintfLine {
    Dim3 block, thread;
    std::string text; // without the trailing newline
};

struct PrintfOutput {
    std::string raw;                   // as the device printed it, tags removed
    std::vector<PrintfLine> lines;     // tagged lines in output order
    std::vector<std::string> untagged; // lines printed with a non-literal format
    bool truncated = false;            // the device FIFO probably overflowed
};

struct Mismatch {
    std::size_t index = 0;
    double got = 0, expected = 0;
};

struct CheckResult {
    std::string buffer;
    std::string expect;
    bool passed = false;
    std::size_t checked = 0, mismatches = 0;
    double maxAbsError = 0, maxRelError = 0;
    std::vector<Mismatch> firstMismatches; // at most 10
};

struct BufferResult {
    std::string name;
    Direction direction = Direction::InOut;
    std::vector<std::size_t> shape; // display shape (count alone for 1-D)
    HostBuffer data;                // state after exactly one launch
};

struct RunTimings {
    double compileMs = 0, moduleLoadMs = 0, h2dMs = 0, d2hMs = 0;
    std::vector<double> kernelMs;
    double minMs = 0, medianMs = 0, meanMs = 0;
    std::uint64_t bytesMoved = 0; // bytes the buffers move per launch (in read + out written)
    double gbps = 0;              // bytesMoved / medianMs
};

struct RunResult {
    bool ok = false; // launched, no fault, all checks passed
    DeviceInfo device;
    CompileResult compile;
    Dim3 grid, block;
    std::uint32_t sharedBytes = 0;
    std::optional<Fault> fault;
    PrintfOutput printf;
    RunTimings timings;
    std::vector<CheckResult> checks;
    std::vector<BufferResult> buffers;
    std::vector<std::string> warnings;
    std::optional<KernelProfile> profile; // per-line counters (the simulator, on request)
    CheckTool check = CheckTool::None;    // the check that ran, if any
    std::vector<CheckFinding> findings;   // what it found
};

} // namespace kw
