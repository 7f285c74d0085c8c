#pragma once
// The __global__ functions of a whole translation unit: the source's own, then those of
// the document's files it includes (a main.cu that includes kernel.cu), each with the
// file it lives in.
#include "compile/IncludeScanner.hpp"
#include "compile/KernelSignature.hpp"

#include <string_view>
#include <vector>

namespace kw {

// `files`: the included files as read (IncludeGate's or scanIncludes' list); those without
// a path (not found) or contents are skipped. Each file's kernels are named by its path,
// relative to `root` where it lies inside it.
std::vector<KernelSignature> translationUnitKernels(std::string_view source, const std::vector<IncludedFile>& files,
                                                    const std::filesystem::path& root = {});

} // namespace kw
