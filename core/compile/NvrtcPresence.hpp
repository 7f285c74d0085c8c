#pragma once
// Whether this computer has an NVRTC the programs can load, looked for exactly as a
// compile looks for it (NvrtcSearchOrder), so the window can say on its first screen
// that kernels cannot compile here and what to install, before anyone tries.
#include <string>
#include <vector>

namespace kw {

struct NvrtcPresence {
    bool found = false;
    std::string path;               // the library that opened, when found
    std::vector<std::string> tried; // "name: reason" for each one before it that did not
    std::string installHint;        // what to install, when none was found

    // Opens the candidates in order and closes the first that loads again; binds
    // nothing and compiles nothing. The first form takes NvrtcLibrary::candidateNames().
    static NvrtcPresence check();
    static NvrtcPresence check(const std::vector<std::string>& candidates);
};

} // namespace kw
