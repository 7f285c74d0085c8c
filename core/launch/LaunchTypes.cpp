#include "launch/LaunchTypes.hpp"

namespace kw {

std::string toString(const Dim3& d)
{
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

const char* toString(L2Flush flush)
{
    switch (flush) {
    case L2Flush::Auto: return "auto";
    case L2Flush::On: return "on";
    case L2Flush::Off: return "off";
    }
    return "auto";
}

std::optional<L2Flush> l2FlushFromString(const std::string& text)
{
    if (text == "auto")
        return L2Flush::Auto;
    if (text == "on" || text == "true")
        return L2Flush::On;
    if (text == "off" || text == "false")
        return L2Flush::Off;
    return std::nullopt;
}

const char* toString(FaultKind kind)
{
    switch (kind) {
    case FaultKind::None: return "none";
    case FaultKind::IllegalAddress: return "illegal_address";
    case FaultKind::MisalignedAddress: return "misaligned_address";
    case FaultKind::Trap: return "trap";
    case FaultKind::Assert: return "assert";
    case FaultKind::LaunchFailure: return "launch_failure";
    case FaultKind::Timeout: return "timeout";
    case FaultKind::OutOfBounds: return "out_of_bounds";
    case FaultKind::DivergentBarrier: return "divergent_barrier";
    case FaultKind::Unsupported: return "unsupported";
    case FaultKind::Other: return "other";
    }
    return "other";
}

} // namespace kw
