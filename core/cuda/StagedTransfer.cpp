#include "cuda/StagedTransfer.hpp"

#include "cuda/DriverStagingDevice.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace kw::cuda {

namespace {

// A positive whole number from the environment, else `fallback`.
std::size_t fromEnvironment(const char* name, std::size_t fallback, std::size_t most)
{
    const char* text = std::getenv(name);
    if (!text || !*text)
        return fallback;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 10);
    return end && *end == 0 && v > 0 && v <= most ? std::size_t(v) : fallback;
}

} // namespace

StagedTransfer::Ring StagedTransfer::ringFromEnvironment()
{
    Ring r;
    r.slotBytes = fromEnvironment("KWB_STAGING_SLOT_MIB", r.slotBytes >> 20, 1024) << 20;
    r.slots = fromEnvironment("KWB_STAGING_SLOTS", r.slots, 64);
    r.copyThreads = unsigned(fromEnvironment("KWB_STAGING_THREADS", r.copyThreads + 1, 64) - 1);
    return r;
}

StagedTransfer::StagedTransfer(Ring ring, std::unique_ptr<StagingDevice> device)
    : ring_(ring)
    , device_(device ? std::move(device) : std::make_unique<DriverStagingDevice>())
    , copier_(ring.copyThreads)
{
    ring_.slotBytes = std::max<std::size_t>(ring_.slotBytes, 4096);
    ring_.slots = std::max<std::size_t>(ring_.slots, 2);
}

StagedTransfer::~StagedTransfer()
{
    for (void* s : slots_)
        device_->freeSlot(s);
}

void* StagedTransfer::slot(std::size_t index)
{
    while (slots_.size() <= index)
        slots_.push_back(device_->allocateSlot(ring_.slotBytes));
    return slots_[index];
}

void StagedTransfer::upload(const void* host, CUdeviceptr device, std::size_t bytes, CUstream stream,
                            const std::string& label)
{
    const auto* src = static_cast<const char*>(host);
    const std::size_t slotBytes = ring_.slotBytes, slots = ring_.slots;
    const std::size_t chunks = (bytes + slotBytes - 1) / slotBytes;
    for (std::size_t k = 0; k < chunks; ++k) {
        const std::size_t offset = k * slotBytes;
        const std::size_t len = std::min(slotBytes, bytes - offset);
        void* s = slot(k % slots);
        if (k >= slots) // the copy engine must be done with this slot's previous chunk
            device_->waitSlot(k % slots, label);
        copier_.copy(s, src + offset, len);
        device_->toDevice(device + offset, s, len, stream, label);
        device_->markSlot(k % slots, stream);
    }
    device_->waitAll(stream, label);
}

void StagedTransfer::download(CUdeviceptr device, void* host, std::size_t bytes, CUstream stream,
                              const std::string& label)
{
    auto* dst = static_cast<char*>(host);
    const std::size_t slotBytes = ring_.slotBytes, slots = ring_.slots;
    const std::size_t chunks = (bytes + slotBytes - 1) / slotBytes;
    auto issue = [&](std::size_t k) {
        const std::size_t offset = k * slotBytes;
        device_->toHost(slot(k % slots), device + offset, std::min(slotBytes, bytes - offset), stream, label);
        device_->markSlot(k % slots, stream);
    };
    for (std::size_t k = 0; k < std::min(chunks, slots); ++k)
        issue(k);
    for (std::size_t k = 0; k < chunks; ++k) {
        const std::size_t offset = k * slotBytes;
        device_->waitSlot(k % slots, label);
        // The result is read later, if at all: streaming stores spare reading its lines first.
        copier_.copy(dst + offset, slot(k % slots), std::min(slotBytes, bytes - offset),
                     ParallelCopy::Stores::streaming);
        if (k + slots < chunks)
            issue(k + slots);
    }
}

} // namespace kw::cuda
