#pragma once
// Host <-> device copies through a ring of pinned staging buffers: pageable data is
// copied into one slot (by several threads) while the copy engine moves another.
#include "cuda/ParallelCopy.hpp"
#include "cuda/StagingDevice.hpp"

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace kw::cuda {

class StagedTransfer {
public:
    struct Ring {
        // Three slots of 16 MiB: a ring small enough to stay in the host's last-level cache
        // (on a 16-core H100 host uploads reached 0.96 to 0.97 of a pinned copy in every
        // process pair with it, 0.93 to 0.96 with four; docs/benchmarks.md).
        std::size_t slotBytes = 16u << 20;
        std::size_t slots = 3;
        unsigned copyThreads = 0; // ParallelCopy's workers; 0 picks from the core count
    };
    // The default ring, or KWB_STAGING_SLOT_MIB, KWB_STAGING_SLOTS and
    // KWB_STAGING_THREADS where set (tests/bench/bench_transfer.py tries rings this way).
    static Ring ringFromEnvironment();

    // `device` null: the driver's.
    explicit StagedTransfer(Ring ring = ringFromEnvironment(), std::unique_ptr<StagingDevice> device = nullptr);
    ~StagedTransfer();
    StagedTransfer(const StagedTransfer&) = delete;
    StagedTransfer& operator=(const StagedTransfer&) = delete;

    const Ring& ring() const noexcept { return ring_; }

    // Both return when the copy is complete. `label` names the buffer in errors.
    void upload(const void* host, CUdeviceptr device, std::size_t bytes, CUstream stream, const std::string& label);
    void download(CUdeviceptr device, void* host, std::size_t bytes, CUstream stream, const std::string& label);

private:
    void* slot(std::size_t index);

    Ring ring_;
    std::unique_ptr<StagingDevice> device_;
    std::vector<void*> slots_; // pinned lazily, then kept: a small run never pays for the whole ring
    ParallelCopy copier_;
};

} // namespace kw::cuda
