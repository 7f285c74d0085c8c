#pragma once
// The SM clock of one GPU as NVML reports it now, and its maximum, so that a timing
// taken while the GPU was not at its clock (idle ramp-up, power or thermal capping)
// shows as such. libnvidia-ml is opened at run time; without it both read 0 (unknown).
#include <string>

namespace kw::cuda {

class SmClock {
public:
    // `pciBusId` as cuDeviceGetPCIBusId gives it ("0000:3b:00.0").
    explicit SmClock(const std::string& pciBusId);

    int currentMhz() const; // 0 when unknown
    int maxMhz() const;     // 0 when unknown
    bool known() const noexcept { return device_ != nullptr; }

private:
    void* device_ = nullptr; // nvmlDevice_t
};

} // namespace kw::cuda
