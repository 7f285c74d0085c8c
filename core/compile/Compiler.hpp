#pragma once
#include "compile/CompileOptions.hpp"
#include "compile/CompileResult.hpp"
#include "util/Trust.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kw {

class ProgramCache;

struct CompileRequest {
    std::string source;
    std::string sourceName = "kernel.cu"; // name used in diagnostics
    std::filesystem::path baseDir;        // quoted includes are looked up here first
    CompileOptions options;
    std::vector<std::string> nameExpressions; // kernels to lower, e.g. "add", "scale<float,128>"
    // Untrusted: options only from OptionAllowList, include folders inside baseDir,
    // and every #include checked by IncludeGate before NVRTC runs.
    Trust trust = Trust::Untrusted;
    // Folders the user named themselves (kwb-run -I): searched, and readable even
    // when the source is untrusted.
    std::vector<std::filesystem::path> userIncludeDirs;
    // Every plain (non-template, not overloaded) kernel found in the source is
    // lowered as well, so CompileResult::loweredNames always has those.
    // NVRTC past this is stopped, and the compile says so.
    std::chrono::milliseconds timeLimit{120000};
};

// Compiles CUDA C++ with NVRTC (loaded at run time). Options and includes are checked
// here; NVRTC itself runs in a child process behind the compiler's sandbox
// (CompileWorkerProcess, CompilerSandbox), for every compile. Thread-safe.
class Compiler {
public:
    // Uses the given cache (may be null: no caching); ProgramCache::openDefault()
    // gives the user's on-disk cache.
    explicit Compiler(std::shared_ptr<ProgramCache> cache = nullptr);
    ~Compiler();

    // The compile worker to start (default: kwb-run beside this program).
    void setWorker(std::filesystem::path worker);

    // For a compiler that lives long (the runner): keep a compile worker up between
    // compiles, so NVRTC's precompiled headers make every recompile after the first
    // quick (WarmCompileWorker). Off by default: a one-shot command would pay for making
    // a precompiled header it never uses. KWB_PCH=0 in the environment keeps it off.
    void keepWorkerWarm(bool warm);

    // Throws kw::Error(Nvrtc) when NVRTC cannot be loaded or breaks, and
    // kw::Error(Untrusted) when an untrusted request asks for an option or a file
    // it may not, or when this system cannot confine the compiler (CompilerSandbox);
    // user code errors come back as a result with ok == false.
    CompileResult compile(const CompileRequest& request);

    // "13.0"; throws kw::Error(Nvrtc) when NVRTC is missing.
    static std::string nvrtcVersion();
    // Default virtual arch used when no device is present ("compute_75").
    static std::string defaultVirtualArch();
    // "sm_90" for compute capability 9.0 when NVRTC can compile for it, else "".
    static std::string realArchFor(int ccMajor, int ccMinor);
    // The installed header folders (the toolkit's or the bundled ones, and CCCL).
    static const std::vector<std::filesystem::path>& installedIncludeDirs();

private:
    struct WarmWorkers;
    std::shared_ptr<ProgramCache> cache_;
    std::filesystem::path worker_;
    std::unique_ptr<WarmWorkers> warm_;
};

} // namespace kw
