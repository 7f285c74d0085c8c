#pragma once
// `kwb-run devices` without --json: a line saying why there is no GPU, when there is
// none, then each device with its compute capability, memory and limits.
#include "run/DevicesReport.hpp"

#include <string>

namespace kw {

class DevicesText {
public:
    static std::string format(const DevicesReport& report);
};

} // namespace kw
