#pragma once
// One operation on resident buffers (launch/ResidentBuffers), described rather than
// done: a pass of a loop is a list of these, recorded once and replayed
// (launch/RecordedPass). Buffers are named by their resident index.
#include "launch/LaunchTypes.hpp"

#include <cstddef>
#include <vector>

namespace kw {

struct ResidentOp {
    enum class Kind { Launch, Copy, Fill };
    Kind kind = Kind::Launch;
    // Launch: `kernel` (outlives the op) with `args` under `config`.
    const KernelImage* kernel = nullptr;
    std::vector<LaunchArg> args;
    LaunchConfig config;
    // Copy: `bytes` of `from` at `fromOffset` to `to` at `toOffset`.
    // Fill: `element` `count` times into `to` from `toOffset`.
    std::size_t from = 0, fromOffset = 0, to = 0, toOffset = 0, bytes = 0, count = 0;
    std::vector<std::byte> element;
};

} // namespace kw
