#pragma once
// Checks every #include of an untrusted source before NVRTC sees it, so NVRTC
// never opens a file outside the document's folder or the installed headers.
// The document's own headers are read here and handed to NVRTC from memory
// (NVRTC would otherwise look for quoted includes in the working folder first);
// installed headers are left to NVRTC's search of the installed folders.
#include "compile/Diagnostic.hpp"
#include "compile/IncludeScanner.hpp"
#include "util/ConfinedFolder.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct InMemoryHeader {
    std::string name; // as spelled in the #include
    std::string text;
};

struct AdmittedIncludes {
    std::vector<InMemoryHeader> headers; // for nvrtcCreateProgram
    std::vector<IncludedFile> files;     // the document's headers read (for the program cache key)
    // Includes of non-regular files (a FIFO would block): compile errors, not refusals,
    // and NVRTC is not asked.
    std::vector<Diagnostic> missing;
    // Quoted includes found nowhere, worded as the user should read them. They are errors
    // only if NVRTC reaches them: an include in an inactive #ifdef branch is never opened.
    std::vector<Diagnostic> absent;
    // admitAll() only: what admit() would have refused, one entry each.
    std::vector<Diagnostic> refused;
};

class IncludeGate {
public:
    // `userDirs`: the folders searched after the including file's own (already
    // confined); `installedDirs`: the installed headers, readable by any document.
    IncludeGate(const ConfinedFolder& folder, std::vector<std::filesystem::path> userDirs,
                std::vector<std::filesystem::path> installedDirs);

    // Throws kw::Error(Untrusted) naming the file and line of an include that is
    // computed or leads outside.
    AdmittedIncludes admit(std::string_view source, const std::string& sourceName) const;
    // The same walk, going on past what it refuses (listed in `refused`), for showing a
    // document's files before it is trusted.
    AdmittedIncludes admitAll(std::string_view source, const std::string& sourceName) const;

private:
    AdmittedIncludes walk(std::string_view source, const std::string& sourceName, bool keepGoing) const;

    const ConfinedFolder& folder_;
    std::vector<std::filesystem::path> userDirs_, installedDirs_;
};

} // namespace kw
