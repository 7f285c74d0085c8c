#include "run/ComputeSanitizerCommand.hpp"

#include "util/Error.hpp"

namespace kw {

std::vector<std::string> ComputeSanitizerCommand::arguments() const
{
    if (tool == CheckTool::None)
        throw Error(ErrorCategory::Usage,
                    "compute-sanitizer needs a tool: memcheck, racecheck, initcheck or synccheck");
    if (program.empty())
        throw Error(ErrorCategory::Usage, "compute-sanitizer needs a program to run");
    std::vector<std::string> a{
        sanitizer.string(),
        "--tool",
        toString(tool),
        "--xml",
        "--save",
        xmlFile.string(),
        "--log-file",
        logFile.string(),
        "--print-limit",
        std::to_string(printLimit),
        "--error-exitcode",
        std::to_string(kFoundErrorsStatus),
        // The program's own exit status says fault (3) or failed check (4); its result
        // says why. Neither is a finding of the tool.
        "--check-exit-code",
        "no",
        // A document that fails to compile never launches a kernel.
        "--require-cuda-init",
        "no",
        // A failed driver call after a fault is the program's to report (its result's fault).
        "--report-api-errors",
        "no",
        // kwb-run alone, not a compiler worker it might start.
        "--target-processes",
        "application-only",
        // kwb-run loads NVRTC and the driver before its first CUDA call; a busy machine is slow.
        "--launch-timeout",
        "60",
        // The findings carry source lines (-lineinfo); host stacks would only be kwb-run's.
        "--show-backtrace",
        "no",
    };
    if (tool == CheckTool::Racecheck) {
        // The hazards (per access: both threads, the block, the address) and the
        // analysis (per pair of source lines, with how many hazards it covers).
        a.insert(a.end(), {"--racecheck-report", "all"});
    }
    a.insert(a.end(), program.begin(), program.end());
    return a;
}

std::string ComputeSanitizerCommand::shellQuote(const std::string& word)
{
#ifdef _WIN32
    // For cmd.exe and the program's own parser (CommandLineToArgvW's rules): backslashes
    // double only before a quote, and a quote inside is \".
    std::string q = "\"";
    std::size_t backslashes = 0;
    for (char c : word) {
        if (c == '\\') {
            ++backslashes;
            continue;
        }
        q.append(c == '"' ? 2 * backslashes + 1 : backslashes, '\\');
        q += c;
        backslashes = 0;
    }
    q.append(2 * backslashes, '\\');
    return q + "\"";
#else
    std::string q = "'";
    for (char c : word) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    return q + "'";
#endif
}

std::string ComputeSanitizerCommand::shellLine() const
{
    std::string line;
    for (const auto& w : arguments()) {
        if (!line.empty())
            line += ' ';
        line += shellQuote(w);
    }
    return line;
}

} // namespace kw
