#pragma once
// Finds NVIDIA's compute-sanitizer, which runs the --check tools on a GPU
// (docs/checks.md). It comes with the CUDA Toolkit, not with the driver, so a
// machine that runs kernels may well lack it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kw {

// Where to look, in this order. fromEnvironment() is what a run uses; tests give their own.
struct SanitizerSearch {
    std::string explicitPath;                    // $KWB_COMPUTE_SANITIZER: the executable itself
    std::string pathVariable;                    // $PATH
    std::vector<std::filesystem::path> toolkits; // each: <root>/bin and <root>/compute-sanitizer
    std::vector<std::filesystem::path> folders;  // other folders that may hold it

    // $KWB_COMPUTE_SANITIZER, $PATH; toolkits $CUDA_HOME, $CUDA_PATH, /usr/local/cuda,
    // /usr/local/cuda-X.Y (newest first), /opt/cuda; folder /opt/nvidia/compute-sanitizer.
    static SanitizerSearch fromEnvironment();
};

class ComputeSanitizerLocator {
public:
    // "compute-sanitizer" ("compute-sanitizer.exe" on Windows).
    static std::string executableName();
    // Every file looked at, in order (duplicates removed).
    static std::vector<std::filesystem::path> candidates(const SanitizerSearch& search);
    // The first candidate that is an executable file.
    static std::optional<std::filesystem::path> find(const SanitizerSearch& search);
    // find(), or kw::Error(Usage) with notFoundMessage().
    static std::filesystem::path require(const SanitizerSearch& search);
    // "compute-sanitizer was not found (looked in ...): install ..., or use --device sim, ..."
    static std::string notFoundMessage(const SanitizerSearch& search);
};

} // namespace kw
