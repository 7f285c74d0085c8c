#pragma once
// Angle-bracket includes that resolve nowhere the device compile looks (the document's
// folders, the installed headers, the built-in C headers): <getopt.h>, <sys/stat.h>, a
// library's host API. nvcc finds them on the host, and only host code can use what they
// declare, so the device compile gets an empty stand-in for each, with a note at the
// include: a device line that does use one fails at its own line, beside that note.
// A quoted include is the document's own and stays an error when missing, and a CUDA
// Toolkit device header (<cuda_bf16.h>) stays one too, with what to install.
#include "compile/Diagnostic.hpp"
#include "compile/IncludeGate.hpp"
#include "compile/IncludeScanner.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct HostHeaderStandIns {
    std::vector<InMemoryHeader> headers;
    std::vector<Diagnostic> notes;

    // `source` (named sourceName) and the document's included `files`, searched in
    // `searchDirs` (each file's own folder first for its quoted includes).
    static HostHeaderStandIns find(std::string_view source, const std::string& sourceName,
                                   const std::vector<IncludedFile>& files,
                                   const std::vector<std::filesystem::path>& searchDirs);
};

} // namespace kw
