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
    void copy(std::size_t from, std::size_t fromOffset, std::size_t to, std::size_t toOffset,
              std::size_t bytes) override;
    void fill(std::size_t index, std::size_t offset, const std::vector<std::byte>& element, std::size_t count) override;
    LaunchReport launch(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config) override;
    // A CUDA graph (cuda/CudaGraphPass), or step by step where the ops cannot be one.
    std::unique_ptr<RecordedPass> record(std::vector<ResidentOp> ops) override;
    bool recordsGraphs() const override;

private:
    void abandonMemory();

    CudaBackend& backend_;
    std::vector<DeviceMemory> memory_;
    std::vector<CudaBackend::Placed> placed_;
};

} // namespace kw::cuda
