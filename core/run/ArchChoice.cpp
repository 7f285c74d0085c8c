#include "run/ArchChoice.hpp"

#include "cuda/CudaDevices.hpp"

namespace kw {

ArchChoice::Gpus ArchChoice::ofThisMachine()
{
    return {[] { return cuda::CudaDevices::count() > 0; },
            [] { return cuda::CudaDevices::cubinArch(cuda::CudaDevices::query(0)); }};
}

std::string ArchChoice::choose(const std::string& asked, const std::string& documentArch, const Gpus& gpus)
{
    if (!asked.empty())
        return asked;
    if (!documentArch.empty())
        return documentArch;
    if (gpus.present && gpus.present())
        return gpus.firstArch();
    return {};
}

} // namespace kw
