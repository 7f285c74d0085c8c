#pragma once
// Finds the user headers a source includes, recursively, so that the program
// cache can key on their contents.
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kw {

struct IncludedFile {
    std::string spelled;        // as written in the #include
    std::filesystem::path path; // empty when not found in the user's folders
    std::string contents;
    // Found, but a FIFO, a device or a folder: NVRTC would block on it or fail
    // obscurely, so the compiler refuses it before NVRTC runs.
    bool notRegular = false;
    // Where the first #include of it stands: the including file (empty for the
    // top-level source) and its line, for a diagnostic at the directive.
    std::filesystem::path includer;
    int line = 0;
};

// Follows #include "..." and #include <...> that resolve in the including
// file's folder (for headers), then `searchDirs`; toolkit and built-in
// headers are not followed. Each file is listed once, in discovery order.
// Conditional compilation is not evaluated: every include is followed.
std::vector<IncludedFile> scanIncludes(std::string_view source, const std::vector<std::filesystem::path>& searchDirs);

} // namespace kw
