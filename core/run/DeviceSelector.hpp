#pragma once
// Device names ("cuda:0", "0", "sim") and the backend behind each.
#include "launch/Backend.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kw {

class PrintfCapture;

struct DeviceSpec {
    enum class Kind { Cuda, Sim };
    Kind kind = Kind::Cuda;
    int ordinal = 0;
    std::string str() const; // "cuda:0" or "sim"
    bool operator==(const DeviceSpec&) const = default;
};

class DeviceSelector {
public:
    // "N", "cuda:N" or "sim"; empty means defaultDevice(). Throws kw::Error(Usage).
    static DeviceSpec parse(const std::string& text);
    // cuda:0 when a GPU is present, else sim.
    static DeviceSpec defaultDevice();
    // The CUDA backend reads device printf through `printf` (may be null).
    static std::unique_ptr<Backend> open(const DeviceSpec& spec, PrintfCapture* printf);
    // Every GPU, then the simulator. Never throws for a missing driver.
    static std::vector<DeviceInfo> list();
};

} // namespace kw
