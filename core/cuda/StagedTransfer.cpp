#include "cuda/StagedTransfer.hpp"

#include "cuda/DriverApi.hpp"

#include <algorithm>

namespace kw::cuda {

StagedTransfer::Slot& StagedTransfer::slot(std::size_t index)
{
    // Slots are pinned lazily: a small run never pays for the whole ring.
    while (slots_.size() <= index)
        slots_.push_back(Slot{PinnedHostMemory(kSlotBytes), Event()});
    return slots_[index];
}

void StagedTransfer::upload(const void* host, CUdeviceptr device, std::size_t bytes, CUstream stream,
                            const std::string& label)
{
    const auto& api = DriverApi::get();
    const auto* src = static_cast<const char*>(host);
    const std::size_t chunks = (bytes + kSlotBytes - 1) / kSlotBytes;
    for (std::size_t k = 0; k < chunks; ++k) {
        const std::size_t offset = k * kSlotBytes;
        const std::size_t len = std::min(kSlotBytes, bytes - offset);
        Slot& s = slot(k % kSlots);
        if (k >= kSlots) // the copy engine must be done with this slot's previous chunk
            api.check(api.cuEventSynchronize(s.done.handle()), "cuEventSynchronize", "upload of buffer " + label);
        copier_.copy(s.memory.data(), src + offset, len);
        api.check(api.cuMemcpyHtoDAsync(device + offset, s.memory.data(), len, stream), "cuMemcpyHtoDAsync",
                  "upload of buffer " + label);
        s.done.record(stream);
    }
    api.check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", "upload of buffer " + label);
}

void StagedTransfer::download(CUdeviceptr device, void* host, std::size_t bytes, CUstream stream,
                              const std::string& label)
{
    const auto& api = DriverApi::get();
    auto* dst = static_cast<char*>(host);
    const std::size_t chunks = (bytes + kSlotBytes - 1) / kSlotBytes;
    auto issue = [&](std::size_t k) {
        const std::size_t offset = k * kSlotBytes;
        Slot& s = slot(k % kSlots);
        api.check(api.cuMemcpyDtoHAsync(s.memory.data(), device + offset, std::min(kSlotBytes, bytes - offset), stream),
                  "cuMemcpyDtoHAsync", "download of buffer " + label);
        s.done.record(stream);
    };
    for (std::size_t k = 0; k < std::min(chunks, kSlots); ++k)
        issue(k);
    for (std::size_t k = 0; k < chunks; ++k) {
        const std::size_t offset = k * kSlotBytes;
        Slot& s = slot(k % kSlots);
        api.check(api.cuEventSynchronize(s.done.handle()), "cuEventSynchronize", "download of buffer " + label);
        copier_.copy(dst + offset, s.memory.data(), std::min(kSlotBytes, bytes - offset));
        if (k + kSlots < chunks)
            issue(k + kSlots);
    }
}

} // namespace kw::cuda
