#pragma once
// Test helpers for the simulator: compile CUDA C++ with NVRTC (loaded at run time),
// build buffers and launch through SimBackend.
#include "sim/SimBackend.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <dlfcn.h>
#include <nvrtc.h>
#include <optional>
#include <string>
#include <vector>

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
// ("scale<float,128>"). Returns nullopt (after ADD_FAILURE) on compile errors.
inline std::optional<kw::KernelImage> compile(const std::string& source, const std::string& kernel) {
    Nvrtc& n = Nvrtc::get();
    if (!n.lib) return std::nullopt;
    nvrtcProgram prog;
    n.create(&prog, source.c_str(), "kernel.cu", 0, nullptr, nullptr);
    n.addName(prog, kernel.c_str());
    const std::string arch = "--gpu-architecture=" + kw::SimBackend().compileArch();
    const char* opts[] = {arch.c_str(), "-lineinfo", "-std=c++17"};
    const nvrtcResult rc = n.compile(prog, 3, opts);
    std::size_t logSize = 0;
    n.logSize(prog, &logSize);
    std::string log(logSize, '\0');
    n.getLog(prog, log.data());
    if (rc != NVRTC_SUCCESS) {
        ADD_FAILURE() << "NVRTC failed:\n" << log;
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

#define KW_REQUIRE_NVRTC()                                                                     \
    do {                                                                                       \
        if (!kwtest::Nvrtc::get().lib) GTEST_SKIP() << "NVRTC (libnvrtc.so) is not available"; \
    } while (0)

template <class T> kw::BufferArg buffer(const std::string& name, const std::vector<T>& values) {
    kw::BufferArg b;
    b.name = name;
    b.data.bytes().resize(values.size() * sizeof(T));
    std::memcpy(b.data.bytes().data(), values.data(), values.size() * sizeof(T));
    return b;
}

template <class T> std::vector<T> values(const kw::BufferArg& b) {
    std::vector<T> v(b.data.bytes().size() / sizeof(T));
    std::memcpy(v.data(), b.data.bytes().data(), v.size() * sizeof(T));
    return v;
}

inline kw::LaunchArg bufArg(std::size_t index) {
    kw::LaunchArg a;
    a.isBuffer = true;
    a.buffer = index;
    return a;
}

template <class T> kw::LaunchArg scalar(T v) {
    kw::LaunchArg a;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
}

inline kw::LaunchConfig config(kw::Dim3 grid, kw::Dim3 block, std::uint32_t shared = 0) {
    kw::LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.sharedBytes = shared;
    c.warmup = 0;
    c.repeats = 0;
    c.timeLimitSeconds = 20;
    return c;
}

} // namespace kwtest
