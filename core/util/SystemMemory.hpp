#pragma once
// The machine's physical memory, for the simulator's "device memory" figure.
#include <cstddef>

namespace kw {

std::size_t physicalMemoryBytes();

} // namespace kw
