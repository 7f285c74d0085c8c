#pragma once
// What the compile worker is handed: the program as NVRTC takes it, after the parent
// has checked options and includes, tagged printf and left host code out. The worker
// runs NVRTC on it behind the sandbox (CompilerSandbox) and nothing else.
#include "compile/IncludeGate.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace kw {

struct NvrtcJob {
    std::string source;                  // as NVRTC compiles it
    std::string sourceName;              // name in diagnostics
    std::vector<InMemoryHeader> headers; // the document's own, admitted by IncludeGate
    std::vector<std::string> args;       // NVRTC options, -I of the installed headers included
    std::vector<std::string> names;      // name expressions to lower
    bool wantCubin = false;
    bool confined = true; // untrusted: reads nothing but the compiler's folders
    std::chrono::milliseconds timeLimit{120000};
    // Where NVRTC keeps its automatic precompiled headers ("": none). Only a worker that
    // stays up between compiles sets it: NVRTC can use a PCH only in the process that
    // made it.
    std::string pchDir;
};

nlohmann::json toJson(const NvrtcJob& job);
// Throws kw::Error(Protocol) when a member is missing or has the wrong type.
NvrtcJob nvrtcJobFromJson(const nlohmann::json& j);

} // namespace kw
