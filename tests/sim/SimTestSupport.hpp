#pragma once
// Test helpers for the simulator: compile CUDA C++ with kw::Compiler,
// build buffers and launch through SimBackend.
#include "SimCompile.hpp"
#include "SimLaunch.hpp"
#include "sim/SimBackend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace kwtest {

// Compiles `source` for the simulator's arch; `kernel` may be a name expression
// ("scale<float,128>"). Returns nullopt (after ADD_FAILURE) on compile errors.
inline std::optional<kw::KernelImage> compile(const std::string& source, const std::string& kernel,
                                              bool tagPrintf = false)
{
    std::string log;
    auto img = compileCuda(source, kernel, log, tagPrintf);
    if (!img)
        ADD_FAILURE() << "NVRTC failed:\n" << log;
    return img;
}

// The same for `arch` (tensor-core and asynchronous-copy kernels need "sm_80" or later).
inline std::optional<kw::KernelImage> compileFor(const std::string& source, const std::string& kernel,
                                                 const std::string& arch)
{
    std::string log;
    auto img = compileCuda(source, kernel, log, false, {}, arch);
    if (!img)
        ADD_FAILURE() << "NVRTC failed:\n" << log;
    return img;
}

// The f16 bits of a value f16 holds exactly (test data: small integers, halves, quarters).
inline std::uint16_t halfBits(double v)
{
    const auto f = float(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    if (f == 0)
        return std::uint16_t((b >> 16) & 0x8000);
    const std::uint32_t sign = (b >> 16) & 0x8000, exp = ((b >> 23) & 0xff) - 127 + 15, man = (b >> 13) & 0x3ff;
    return std::uint16_t(sign | (exp << 10) | man);
}

// The bf16 bits of a value with at most 8 significant bits.
inline std::uint16_t bf16Bits(double v)
{
    const auto f = float(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return std::uint16_t(b >> 16);
}

// The 1-based line of `source` holding `marker` (a comment on the line under test), as
// -lineinfo reports it.
inline int lineOf(const std::string& source, const std::string& marker)
{
    const auto at = source.find(marker);
    if (at == std::string::npos) {
        ADD_FAILURE() << "no marker " << marker;
        return -1;
    }
    return 1 + int(std::count(source.begin(), source.begin() + std::ptrdiff_t(at), '\n'));
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// NVRTC is a build prerequisite: a test that needs it fails, never skips, when it
// cannot be loaded (the name is kept for the tests that already use it).
#define KW_REQUIRE_NVRTC()                                                                                             \
    do {                                                                                                               \
        ASSERT_TRUE(kwtest::nvrtcAvailable()) << "NVRTC could not be loaded";                                          \
    } while (0)

} // namespace kwtest
