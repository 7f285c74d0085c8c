#pragma once
// NVRTC ships no C/C++ standard headers. These small in-memory replacements make
// the common ones work in kernels; they only declare what NVRTC's device
// built-ins already provide (printf, malloc, the math functions, __assertfail)
// and use the same definitions as CCCL's NVRTC branch, so mixing them with
// <cuda/std/...> headers is harmless.
#include <string>
#include <vector>

namespace kw {

class BuiltinHeaders {
public:
    struct Header {
        std::string name; // as written in #include <...>
        std::string text;
    };
    static const std::vector<Header>& all();
    // True for a name one of them answers (`#include <cmath>`).
    static bool has(const std::string& name);
    // Pre-included in every compile (NVRTC's --pre-include), as nvcc pre-includes
    // cuda_runtime.h: the names device code of a .cu file sees without an #include.
    static constexpr const char* kNvccEnvironment = "kwb_nvcc_environment.h";
    // Changes whenever any header's text changes (part of the program cache key).
    static const std::string& fingerprint();
};

} // namespace kw
