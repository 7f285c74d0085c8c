#pragma once
// Buffers kept between launches on the simulator (launch/ResidentBuffers). The host
// memory is the device memory, and the module's variables live as long as this object
// while the module is the same, as they do in a GPU's loaded module.
//
// initcheck across launches: which bytes of each buffer hold data is kept from the upload
// on (an `out` buffer's upload is no data: the steps produce it), a copy carries its
// source range's state, a fill writes its range, a launch under initcheck reads and marks
// it (sim/SimChecks). A sequence's launches share one check tool, so the first launch
// decides: if it is not under initcheck, the tracking ends and its memory is freed.
#include "sim/SimBackend.hpp"

#include <cstdint>
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
    // Per buffer, 1 for each byte that holds data; empty: all of them do.
    std::vector<std::vector<std::uint8_t>> written_;
    bool tracking_ = true;
};

} // namespace kw
