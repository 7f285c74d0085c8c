#pragma once
// Compiles CUDA C++ to PTX with NVRTC loaded at run time, for the simulator's tests
// and benchmarks (the product's compiler lives in core/compile).
#include "run/LaunchTypes.hpp"
#include "sim/SimBackend.hpp"

#include <dlfcn.h>
#include <nvrtc.h>
#include <optional>
#include <string>

namespace kwtest {

struct Nvrtc {
    void* lib = nullptr;
    decltype(&nvrtcCreateProgram) create = nullptr;
    decltype(&nvrtcCompileProgram) compile = nullptr;
    decltype(&nvrtcGetPTXSize) ptxSize = nullptr;
    decltype(&nvrtcGetPTX) getPtx = nullptr;
    decltype(&nvrtcGetProgramLogSize) logSize = nullptr;
    decltype(&nvrtcGetProgramLog) getLog = nullptr;
    decltype(&nvrtcAddNameExpression) addName = nullptr;
    decltype(&nvrtcGetLoweredName) lowered = nullptr;
    decltype(&nvrtcDestroyProgram) destroy = nullptr;

    static Nvrtc& get() {
        static Nvrtc n = [] {
            Nvrtc r;
            for (const char* name : {"libnvrtc.so", "libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so"}) {
                r.lib = dlopen(name, RTLD_NOW);
                if (r.lib) break;
            }
            if (!r.lib) return r;
            r.create = reinterpret_cast<decltype(r.create)>(dlsym(r.lib, "nvrtcCreateProgram"));
            r.compile = reinterpret_cast<decltype(r.compile)>(dlsym(r.lib, "nvrtcCompileProgram"));
            r.ptxSize = reinterpret_cast<decltype(r.ptxSize)>(dlsym(r.lib, "nvrtcGetPTXSize"));
            r.getPtx = reinterpret_cast<decltype(r.getPtx)>(dlsym(r.lib, "nvrtcGetPTX"));
            r.logSize = reinterpret_cast<decltype(r.logSize)>(dlsym(r.lib, "nvrtcGetProgramLogSize"));
            r.getLog = reinterpret_cast<decltype(r.getLog)>(dlsym(r.lib, "nvrtcGetProgramLog"));
            r.addName = reinterpret_cast<decltype(r.addName)>(dlsym(r.lib, "nvrtcAddNameExpression"));
            r.lowered = reinterpret_cast<decltype(r.lowered)>(dlsym(r.lib, "nvrtcGetLoweredName"));
            r.destroy = reinterpret_cast<decltype(r.destroy)>(dlsym(r.lib, "nvrtcDestroyProgram"));
            return r;
        }();
        return n;
    }
};

// Compiles `source` for the simulator's arch; `kernel` may be a name expression
// ("scale<float,128>"). Returns nullopt with the log on errors or without NVRTC.
inline std::optional<kw::KernelImage> compileCuda(const std::string& source, const std::string& kernel,
                                                  std::string& log) {
    Nvrtc& n = Nvrtc::get();
    if (!n.lib) { log = "NVRTC (libnvrtc.so) is not available"; return std::nullopt; }
    nvrtcProgram prog;
    n.create(&prog, source.c_str(), "kernel.cu", 0, nullptr, nullptr);
    n.addName(prog, kernel.c_str());
    const std::string arch = "--gpu-architecture=" + kw::SimBackend().compileArch();
    const char* opts[] = {arch.c_str(), "-lineinfo", "-std=c++17"};
    const nvrtcResult rc = n.compile(prog, 3, opts);
    std::size_t logSize = 0;
    n.logSize(prog, &logSize);
    log.assign(logSize, '\0');
    n.getLog(prog, log.data());
    if (rc != NVRTC_SUCCESS) {
        n.destroy(&prog);
        return std::nullopt;
    }
    std::size_t size = 0;
    n.ptxSize(prog, &size);
    kw::KernelImage img;
    img.ptx.resize(size);
    n.getPtx(prog, img.ptx.data());
    while (!img.ptx.empty() && img.ptx.back() == '\0') img.ptx.pop_back();
    const char* lowered = nullptr;
    n.lowered(prog, kernel.c_str(), &lowered);
    img.name = kernel;
    img.loweredName = lowered ? lowered : kernel;
    n.destroy(&prog);
    return img;
}

} // namespace kwtest
