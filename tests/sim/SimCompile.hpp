#pragma once
// Compiles CUDA C++ for the simulator with the product's compiler (NVRTC loaded at
// run time), for the simulator's tests and benchmarks.
#include "compile/Compiler.hpp"
#include "launch/LaunchTypes.hpp"
#include "sim/SimBackend.hpp"
#include "util/Error.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kwtest {

inline bool nvrtcAvailable()
{
    static const bool available = [] {
        try {
            kw::Compiler::nvrtcVersion();
            return true;
        } catch (const kw::Error&) {
            return false;
        }
    }();
    return available;
}

// Compiles `source` for the simulator's arch; `kernel` may be a name expression
// ("scale<float,128>"). Returns nullopt with the log on errors or without NVRTC.
// tagPrintf: let the compiler tag printf lines with block and thread, as kwb-run does.
// extra: further NVRTC options ("--fmad=false"); arch: another target than the simulator's
// default ("sm_80").
inline std::optional<kw::KernelImage> compileCuda(const std::string& source, const std::string& kernel,
                                                  std::string& log, bool tagPrintf = false,
                                                  const std::vector<std::string>& extra = {},
                                                  const std::string& arch = {})
{
    try {
        kw::Compiler compiler;
        kw::CompileRequest request;
        request.source = source;
        request.nameExpressions = {kernel};
        request.options.arch = arch.empty() ? kw::SimBackend().compileArch() : arch;
        request.options.tagPrintf = tagPrintf;
        request.options.extra = extra;
        kw::CompileResult result = compiler.compile(request);
        log = result.log;
        if (!result.ok)
            return std::nullopt;
        kw::KernelImage img;
        img.name = kernel;
        auto lowered = result.loweredNames.find(kernel);
        img.loweredName = lowered != result.loweredNames.end() ? lowered->second : kernel;
        img.ptx = result.ptx;
        return img;
    } catch (const kw::Error& e) {
        log = e.what();
        return std::nullopt;
    }
}

} // namespace kwtest
