#pragma once
// The lanes' memory accesses of the instruction executing now, collected by
// Warp::access() lane by lane, or by Warp::accessAll() for a whole warp at once, while
// observers want them, and delivered once the handler has returned (sim/ProfileCollector).
// Indexed by lane: a lane that accesses twice in one instruction (printf reading a
// string) keeps its last access.
#include "sim/PtxTypes.hpp"

#include <cstdint>

namespace kw::sim {

struct AccessLog {
    std::uint32_t lanes = 0;       // lanes that accessed memory
    std::uint32_t inSpace[6] = {}; // per resolved Space (Global, Shared, Local, Const): its lanes
    bool write = false;            // a store or an atomic
    // All 32 lanes noted at once, each half-warp's addresses one address or consecutive
    // elements (Warp::accessAll's regularHalves): the profiler counts them from a few lanes.
    bool regularHalves = false;
    // The accesses are an atomic release of an arrive/wait barrier made by an instruction
    // whose other accesses are plain (a bulk copy completing on its barrier).
    bool barrierRelease = false;
    std::uint32_t size[32];
    std::uint64_t addr[32]; // global: the device address; shared, local: the offset

    void note(Space sp, std::uint64_t a, std::uint32_t bytes, bool wr, int lane)
    {
        const std::uint32_t bit = 1u << lane;
        regularHalves = false;
        lanes |= bit;
        inSpace[static_cast<int>(sp)] |= bit;
        write = wr;
        size[lane] = bytes;
        addr[lane] = a;
    }
    // All 32 lanes at once: lane l at A[l] + delta.
    void noteWarp(Space sp, const std::uint64_t* A, std::uint64_t delta, std::uint32_t bytes, bool wr,
                  bool halves = false)
    {
        regularHalves = halves;
        lanes = 0xffffffffu;
        inSpace[static_cast<int>(sp)] |= 0xffffffffu;
        write = wr;
        for (int l = 0; l < 32; ++l) {
            size[l] = bytes;
            addr[l] = A[l] + delta;
        }
    }
    void clear()
    {
        lanes = 0;
        regularHalves = false;
        barrierRelease = false;
        for (auto& m : inSpace)
            m = 0;
    }
};

} // namespace kw::sim
