#pragma once
// Finds the __global__ functions of a CUDA source and describes their
// parameters for the arguments panel and for argument marshalling.
#include "compile/KernelSignature.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kw {

// Every __global__ function definition or declaration, in source order
// (a kernel declared and later defined is listed once). Kernels inside
// namespaces get qualified names ("ns::k"). Never throws.
std::vector<KernelSignature> parseKernelSignatures(std::string_view source);

// Analyses one parameter declaration, e.g. "const float* __restrict__ a".
KernelParam parseKernelParam(std::string_view declaration);

// Substitutes the template arguments of `instantiation` ("scale<float,128>")
// into a template kernel's parameter types. The result is named after the
// instantiation and has no template parameters. Missing arguments take the
// template parameters' defaults. Throws kw::Error(Usage) when the
// instantiation names another kernel or has too many or too few arguments.
KernelSignature instantiate(const KernelSignature& kernel, std::string_view instantiation);

// A __constant__ or __device__ variable at namespace scope, which a document's
// "globals" can fill.
struct ModuleGlobal {
    std::string name;  // "taps"
    std::string space; // "__constant__" or "__device__"
    std::string type;  // "float", "unsigned int", "float2"
    std::string dims;  // "[5]", "[TAPS]" or empty
    int line = 0;      // 1-based
};
// Every module variable of the source in order (ModuleGlobals.cpp). Never throws.
std::vector<ModuleGlobal> parseModuleGlobals(std::string_view source);

} // namespace kw
