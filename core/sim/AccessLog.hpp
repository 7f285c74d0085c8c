#pragma once
// The lanes' memory accesses of the instruction executing now, collected by
// Warp::access() while a launch is profiled and read once the handler has returned
// (sim/ProfileCollector). Indexed by lane: a lane that accesses twice in one
// instruction (printf reading a string) keeps its last access.
#include "sim/PtxTypes.hpp"

#include <cstdint>

namespace kw::sim {

struct AccessLog {
    std::uint32_t lanes = 0;          // lanes that accessed memory
    bool write = false;               // a store or an atomic
    Space space[32];                  // resolved: Global, Shared, Local or Const
    std::uint32_t size[32];
    std::uint64_t addr[32];           // global: the device address; shared, local: the offset

    [[gnu::always_inline]] void note(Space sp, std::uint64_t a, std::uint32_t bytes, bool wr, int lane) {
        lanes |= 1u << lane;
        write = wr;
        space[lane] = sp;
        size[lane] = bytes;
        addr[lane] = a;
    }
};

} // namespace kw::sim
