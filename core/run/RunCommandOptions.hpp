#pragma once
// `kwb-run run`'s options as the command line gives them. A new flag is a new field
// here, bound in the program's option definitions and read by the command.
#include <optional>
#include <string>
#include <vector>

namespace kw {

struct RunCommandOptions {
    std::string file;                  // FILE.kwb
    std::string device;                // --device: N, cuda:N or sim; empty: cuda:0 if present, else sim
    std::optional<int> repeat;         // --repeat: timed repeats instead of the document's
    std::string l2Flush;               // --l2-flush: on, off or auto instead of the document's run.l2_flush
    std::string outDir;                // --out: output buffers as .npy and result.json here
    std::vector<std::string> outAfter; // --out-after STEP: every buffer after that step, in DIR/after-step-STEP/
    std::string runner;                // --runner: the command line that starts a runner (docs/remote.md)
    bool json = false;                 // --json: the run result as JSON
    bool trust = false;                // --trust: the document's options and files as they are
    std::string check;                 // --check: memcheck, racecheck, initcheck or synccheck (docs/checks.md)
    bool profile = false;              // --profile: per-line counters from the simulator (docs/profile.md)
    bool rawPrintf = false;            // --raw-printf: the kernel's printf bytes as they are, not escaped and marked
};

} // namespace kw
