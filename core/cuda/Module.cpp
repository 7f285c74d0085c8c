#include "cuda/Module.hpp"

#include "cuda/DriverApi.hpp"

#include <utility>

namespace kw::cuda {

Module::Module(const void* image, std::string label)
    : label_(std::move(label))
{
    const auto& api = DriverApi::get();
    api.check(api.cuModuleLoadData(&module_, image), "cuModuleLoadData", "module " + label_);
}

Module::~Module() { unload(); }

Module::Module(Module&& other) noexcept
    : module_(std::exchange(other.module_, nullptr))
    , label_(std::move(other.label_))
{
}

Module& Module::operator=(Module&& other) noexcept
{
    if (this != &other) {
        unload();
        module_ = std::exchange(other.module_, nullptr);
        label_ = std::move(other.label_);
    }
    return *this;
}

void Module::unload() noexcept
{
    if (module_)
        DriverApi::get().cuModuleUnload(module_);
    module_ = nullptr;
}

CUfunction Module::function(const std::string& loweredName) const
{
    const auto& api = DriverApi::get();
    CUfunction f = nullptr;
    api.check(api.cuModuleGetFunction(&f, module_, loweredName.c_str()), "cuModuleGetFunction",
              "kernel " + loweredName + " in module " + label_);
    return f;
}

std::optional<Module::Global> Module::global(const std::string& name) const
{
    const auto& api = DriverApi::get();
    Global g;
    const CUresult r = api.cuModuleGetGlobal(&g.pointer, &g.bytes, module_, name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
        return std::nullopt;
    api.check(r, "cuModuleGetGlobal", "variable " + name + " in module " + label_);
    return g;
}

} // namespace kw::cuda
