#pragma once
// A fast non-cryptographic 64-bit hash for cache file names and entry checksums.
// Cache keys are compared in full on load, so collisions cost a recompile at most.
#include <cstdint>
#include <string_view>

namespace kw {

std::uint64_t contentHash(std::string_view data, std::uint64_t seed = 0);

} // namespace kw
