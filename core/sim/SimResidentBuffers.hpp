#pragma once
// Buffers kept between launches on the simulator (launch/ResidentBuffers). The host
// memory is the device memory, and the module's variables live as long as this object
// while the module is the same, as they do in a GPU's loaded module.
#include "sim/SimBackend.hpp"

#include <string>
#include <vector>

namespace kw {

class SimResidentBuffers : public ResidentBuffers {
public:
    explicit SimResidentBuffers(SimBackend& backend);

    std::size_t add(const BufferArg& buffer) override;
    std::size_t size() const override { return buffers_.size(); }
    void read(std::size_t index, HostBuffer& into) override;
    LaunchReport launch(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config) override;

private:
    SimBackend& backend_;
    std::vector<BufferArg> buffers_;
    std::string modulePtx_;            // the module the variables below belong to
    std::vector<BufferArg> variables_; // its variables no buffer fills
};

} // namespace kw
