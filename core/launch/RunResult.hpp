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
    std::string step; // the step that printed it ("2.1"), in a document of steps
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
    TimingDetail detail;          // how the kernel times were taken
};

// One step of a document of steps, over all the times it ran (docs/document-format.md,
// "Steps"). Steps are listed in document order, a repeat before its inner steps, the
// ones that never ran too.
struct StepResult {
    std::string path;   // its place: "2", or "3.1" for the first inner step of step 3
    std::string kind;   // launch, copy, fill, swap, repeat, repeat_until
    std::string name;   // the document's name for it, else what it is ("copy a to b")
    std::string kernel; // a launch's kernel
    Dim3 grid, block;   // a launch's, as its last run evaluated them
    std::uint32_t sharedBytes = 0;
    int runs = 0;                    // times it ran; a repeat: its passes
    std::vector<double> kernelMs;    // a launch: each run's kernel time
    double totalMs = 0;              // kernel time in it (a repeat: in its inner steps)
    std::vector<CheckResult> checks; // after its first run whose checks failed, else its last
    // Every buffer as the step's last run left it (a step inside a repeat: after its last
    // pass), by the document's names; only for the steps a run asks for
    // (RunOverrides::stepBuffers), else empty.
    std::vector<BufferResult> buffers;
    // --profile (the simulator): a launch's per-line counters summed over its runs.
    std::optional<KernelProfile> profile;
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
    std::optional<KernelProfile> profile; // per-line counters (the simulator, on request); steps: summed over them
    CheckTool check = CheckTool::None;    // the check that ran, if any
    std::vector<CheckFinding> findings;   // what it found
    std::vector<StepResult> steps;        // a document of steps
    std::string stopped;                  // why its steps stopped before their end (a loop's limit, the time limit)
    std::string faultStep;                // the step that faulted
};

} // namespace kw
