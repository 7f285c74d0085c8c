#pragma once
// `kwb-run export DOC --to cupy|pycuda|cpp [--out DIR] [--trust]`: writes the document as a
// program that reproduces its run (core/export, docs/export.md) and lists what it wrote.
// Returns the exit code (run/ExitCode).
#include <cstdio>
#include <string>

namespace kw {

struct ExportCommandOptions {
    std::string file;
    std::string target;
    std::string outDir; // default: NAME-TARGET beside the document
    bool trust = false;
    bool cubin = false; // cpp: embed a cubin compiled now, for `arch`
    std::string arch;
};

class ExportCommand {
public:
    explicit ExportCommand(ExportCommandOptions options, std::FILE* out = stdout, std::FILE* err = stderr);
    // Never throws: a failure is reported on `err` (run/FailureReport).
    int execute();

private:
    ExportCommandOptions options_;
    std::FILE* out_;
    std::FILE* err_;
};

} // namespace kw
