#pragma once
// Buffers kept in a GPU's memory between launches (launch/ResidentBuffers), through
// the same launch steps as CudaBackend::launch.
#include "cuda/CudaBackend.hpp"
#include "cuda/DeviceMemory.hpp"

#include <vector>

namespace kw::cuda {

class CudaResidentBuffers : public ResidentBuffers {
public:
    explicit CudaResidentBuffers(CudaBackend& backend);
    ~CudaResidentBuffers() override;

    std::size_t add(const BufferArg& buffer) override;
    std::size_t size() const override { return placed_.size(); }
    void read(std::size_t index, HostBuffer& into) override;
    LaunchReport launch(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config) override;

private:
    CudaBackend& backend_;
    std::vector<DeviceMemory> memory_;
    std::vector<CudaBackend::Placed> placed_;
};

} // namespace kw::cuda
