#pragma once
// Host <-> device copies through a ring of pinned staging buffers: pageable data is
// copied into one slot (by several threads) while the copy engine moves another.
#include "cuda/Event.hpp"
#include "cuda/ParallelCopy.hpp"
#include "cuda/PinnedHostMemory.hpp"

#include <cuda.h>

#include <cstddef>
#include <vector>

namespace kw::cuda {

class StagedTransfer {
public:
    static constexpr std::size_t kSlotBytes = 16u << 20;
    static constexpr std::size_t kSlots = 4;

    StagedTransfer() = default;

    // Both return when the copy is complete. `label` names the buffer in errors.
    void upload(const void* host, CUdeviceptr device, std::size_t bytes, CUstream stream, const std::string& label);
    void download(CUdeviceptr device, void* host, std::size_t bytes, CUstream stream, const std::string& label);

private:
    struct Slot {
        PinnedHostMemory memory;
        Event done;
    };
    Slot& slot(std::size_t index);

    std::vector<Slot> slots_;
    ParallelCopy copier_;
};

} // namespace kw::cuda
