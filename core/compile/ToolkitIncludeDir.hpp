#pragma once
#include <filesystem>

namespace kw {

// The CUDA toolkit's include folder (holding cuda_fp16.h, and cccl/ for
// <cuda/std/...>): $KWB_CUDA_INCLUDE, then the headers installed with the
// package that carries NVRTC (NvrtcSearchOrder::nvidiaDir()/include), then the folder
// found at build time, then /usr/local/cuda/include. When KWB_NVRTC picks
// another NVRTC, the toolkit's folders come before the package's.
// Empty when none of them holds cuda_fp16.h.
std::filesystem::path toolkitIncludeDir();

} // namespace kw
