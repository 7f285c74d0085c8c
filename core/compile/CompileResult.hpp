#pragma once
#include "compile/Diagnostic.hpp"
#include "compile/HostCodeFilter.hpp"
#include "compile/KernelSignature.hpp"

#include <map>
#include <string>
#include <vector>

namespace kw {

// The outcome of compiling user code. A compile error is a value here.
struct CompileResult {
    bool ok = false;
    std::string log;                     // NVRTC's raw log
    std::vector<Diagnostic> diagnostics; // parsed from the log, lines in the user's source
    std::string ptx;
    std::vector<char> cubin;                         // empty when compiled for a virtual arch only
    std::string arch;                                // what was compiled for: "sm_90" or "compute_75"
    std::map<std::string, std::string> loweredNames; // name expression -> mangled name
    std::vector<KernelSignature> kernels;            // __global__ functions found in the source
    std::vector<PtxEntry> entries;                   // .entry directives of the PTX
    std::vector<std::string> includedFiles;          // headers actually included (for the cache key)
    std::vector<HostCodeRange> hostCode;             // what of the source was left out as host code
    double compileMs = 0.0;
    bool cacheHit = false;
    // NVRTC's precompiled headers in this compile: "" none, "created" or "used".
    std::string pch;
    // The compile worker died of a signal (a result worded by CompileWorkerProcess).
    bool crashed = false;
};

// How the program came to be, for a note beside the compile time: "cached",
// "precompiled headers used", "precompiled headers made", or "" for a plain compile.
inline std::string howCompiled(const CompileResult& r)
{
    if (r.cacheHit)
        return "cached";
    if (r.pch == "used")
        return "precompiled headers used";
    if (r.pch == "created")
        return "precompiled headers made";
    return {};
}

} // namespace kw
