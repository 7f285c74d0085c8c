#pragma once
// --check on a `cuda` device (docs/checks.md): the document runs once in a child
//   compute-sanitizer --tool T --xml --save report.xml ... kwb-run run document.kwb
//       --device cuda:N --json --out out/
// from a folder of its own (CheckJobFolder), under a time limit. The child's result
// (its --json output, the outputs as .npy) comes back as this run's result, with
// compute-sanitizer's findings mapped to the document's source lines.
#include "run/ComputeSanitizerLocator.hpp"
#include "run/ExternalCheck.hpp"

#include <chrono>
#include <filesystem>
#include <optional>

namespace kw {

struct SanitizedRunOptions {
    SanitizerSearch search = SanitizerSearch::fromEnvironment();
    std::filesystem::path kwbRun;                       // the program to run; empty: kwb-run beside this executable
    std::filesystem::path workRoot;                     // where job folders go; empty: <cache>/checks
    std::optional<std::chrono::milliseconds> timeLimit; // the whole child; empty: jobLimit()
};

class SanitizedRun : public ExternalCheck {
public:
    explicit SanitizedRun(SanitizedRunOptions options = {});

    // Throws kw::Error(Usage) when compute-sanitizer is missing (the message says where
    // it looked and that --device sim checks without a GPU), kw::Error(Fault) when the
    // child crashed or did not finish in time, the child's own error (category and
    // message) when it refused the document.
    RunResult run(const Document& doc, const DeviceInfo& device, CheckTool tool,
                  const RunOverrides& overrides) override;

    // The tools slow kernels down 10 to 100 times: the child's limit per launch is ten
    // times the document's, at least 30 s.
    static double childLaunchLimitSeconds(double documentLimitSeconds);
    // The whole child: start-up, compile and the one launch with room to spare. A
    // runner's own watchdog must allow at least this for a checked run.
    static std::chrono::milliseconds jobLimit(const RunSettings& run, const RunOverrides& overrides);

    // "exited with status 3" -> 3 (RunnerProcess::wait's words); nullopt for a signal.
    static std::optional<int> exitStatusOf(const std::string& exitText);

private:
    std::filesystem::path kwbRun() const;

    SanitizedRunOptions options_;
};

} // namespace kw
