#pragma once
// A loaded CUDA module (CUBIN or PTX image), unloaded on destruction.
#include <cuda.h>

#include <optional>
#include <string>

namespace kw::cuda {

class Module {
public:
    Module() = default;
    // `image` is a CUBIN or a NUL-terminated PTX text; `label` names it in errors.
    Module(const void* image, std::string label);
    ~Module();
    Module(Module&& other) noexcept;
    Module& operator=(Module&& other) noexcept;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    CUmodule handle() const noexcept { return module_; }
    CUfunction function(const std::string& loweredName) const;

    struct Global {
        CUdeviceptr pointer = 0;
        std::size_t bytes = 0;
    };
    // A __constant__ or __device__ variable by its PTX name; nullopt when the module has none.
    std::optional<Global> global(const std::string& name) const;

private:
    void unload() noexcept;
    CUmodule module_ = nullptr;
    std::string label_;
};

} // namespace kw::cuda
