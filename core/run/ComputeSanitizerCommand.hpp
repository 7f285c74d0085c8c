#pragma once
// The command line that runs a program under compute-sanitizer with one tool: the
// findings saved as XML (SanitizerXmlReader reads them), compute-sanitizer's own
// text in a log file, so the program's standard output stays its own.
#include "launch/CheckTool.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kw {

struct ComputeSanitizerCommand {
    // Records written (and saved) at most: enough to fold into findings and count,
    // few enough that a kernel faulting in every thread stays quick.
    static constexpr int kPrintLimit = 1000;
    // The exit status when the tool found anything, so a report that lists nothing
    // can be told from a clean run.
    static constexpr int kFoundErrorsStatus = 86;

    std::filesystem::path sanitizer;
    CheckTool tool = CheckTool::Memcheck;
    std::filesystem::path xmlFile, logFile;
    std::vector<std::string> program; // the program to run and its arguments
    int printLimit = kPrintLimit;

    // The sanitizer and every argument. Throws kw::Error(Usage) for CheckTool::None
    // or an empty program.
    std::vector<std::string> arguments() const;
    // The same for the shell a RunnerProcess runs (/bin/sh -c; cmd.exe on Windows),
    // every word quoted.
    std::string shellLine() const;

    // 'word' for /bin/sh (a ' inside becomes '\''); on Windows "word" for cmd.exe and
    // CommandLineToArgvW (a " inside becomes \"; cmd.exe still expands %NAME%).
    static std::string shellQuote(const std::string& word);
};

} // namespace kw
