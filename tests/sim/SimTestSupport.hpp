#pragma once
// Test helpers for the simulator: compile CUDA C++ with kw::Compiler,
// build buffers and launch through SimBackend.
#include "SimCompile.hpp"
#include "SimLaunch.hpp"
#include "sim/SimBackend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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
