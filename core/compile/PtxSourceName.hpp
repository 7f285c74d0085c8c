#pragma once
// NVRTC writes the program's name into the PTX's `.file` directive joined to the working
// folder of the process that compiled it ("/some/folder/kernel.cu"): a folder the user
// never sees, and a different one for each compiling process (the program cache keeps the
// first). Every place read from the PTX (the simulator's check findings and faults, the
// profile's lines, the debugger's locations) comes from those directives, so the name is
// given back here, once, as the document names its source ("kernel.cu", "scan.cu").
#include <string>

namespace kw {

struct PtxSourceName {
    // `ptx` with each `.file` directive naming `compiledAs` naming `sourceName` instead;
    // the other files (headers) keep their paths.
    static std::string restore(std::string ptx, const std::string& compiledAs, const std::string& sourceName);
    // The path NVRTC gives a program named `sourceName` compiled in this process.
    static std::string compiledPath(const std::string& sourceName);
};

} // namespace kw
