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
    void copy(std::size_t from, std::size_t fromOffset, std::size_t to, std::size_t toOffset,
              std::size_t bytes) override;
    void fill(std::size_t index, std::size_t offset, const std::vector<std::byte>& element, std::size_t count) override;
    LaunchReport launch(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                        const LaunchConfig& config) override;

private:
    SimBackend& backend_;
    std::vector<BufferArg> buffers_;
    std::string modulePtx_;            // the module the variables below belong to
    std::vector<BufferArg> variables_; // its variables no buffer fills
};

} // namespace kw
