#pragma once
// Test helpers for the simulator: compile CUDA C++ with NVRTC (loaded at run time),
// build buffers and launch through SimBackend.
#include "SimNvrtc.hpp"
#include "sim/SimBackend.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace kwtest {

// Compiles `source` for the simulator's arch; `kernel` may be a name expression
// ("scale<float,128>"). Returns nullopt (after ADD_FAILURE) on compile errors.
inline std::optional<kw::KernelImage> compile(const std::string& source, const std::string& kernel) {
    std::string log;
    auto img = compileCuda(source, kernel, log);
    if (!img) ADD_FAILURE() << "NVRTC failed:\n" << log;
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
