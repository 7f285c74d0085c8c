#pragma once
// One warp of 32 lanes executing in lock step: registers (reg-major, 32 lanes per
// register), reconvergence state and memory access with bounds checks.
#include "sim/AccessLog.hpp"
#include "sim/AsyncCopies.hpp"
#include "sim/BlockPrintf.hpp"
#include "sim/LaunchState.hpp"
#include "sim/ObserverList.hpp"
#include "sim/PtxModule.hpp"

#include <cstdint>
#include <string>

namespace kw::sim {

struct BlockState {
    LaunchState* launch = nullptr;
    std::uint8_t* shared = nullptr;
    Dim3 ctaid;
    BlockPrintf printf; // this block's device printf text and who printed it
    ObserverList observers;
    AccessLog accesses; // the lanes' accesses of the last instruction, while observers want them
};

struct Warp {
    std::uint64_t* R = nullptr;
    const Function* fn = nullptr;
    BlockState* blk = nullptr;
    LaunchState* L = nullptr;
    std::uint8_t* local = nullptr; // lane l's frame at local + l * localBytes
    std::uint32_t localBytes = 0;
    std::uint32_t warpId = 0;
    std::uint32_t pc = 0, mask = 0; // the lanes executing together now and their pc
    std::uint32_t exists = 0, exited = 0, atBar = 0;
    std::uint32_t barPred = 0;   // bar.red: each waiting lane's predicate
    std::uint32_t mergePc = ~0u; // lowest pc of a runnable lane waiting to rejoin
    bool polled = false;         // ran a polling instruction since its last backward branch
    bool ahead = false;          // the lanes running now overtook lanes still behind them
    std::uint32_t lanePc[32] = {};
    std::uint64_t executed = 0;
    std::uint64_t sliceEnd = 0; // while inTurn: where the warp's turn ends (BlockRunner)
    bool inTurn = false;        // a turn was paused before its end and goes on when resumed
    bool announced = false;     // the observers saw the instruction at pc already (paused before it)
    bool stop = false;
    const MemRegion* cache = nullptr; // last global region hit
    AccessLog* probe = nullptr;       // where access() notes each lane's access while observed (null: off)
    AsyncCopies async;                // cp.async copies not landed yet

    std::uint64_t* reg(std::uint32_t i) const { return R + std::size_t(i) * 32; }
    Dim3 threadOf(int lane) const
    {
        return {std::uint32_t(R[RegTidX * 32 + lane]), std::uint32_t(R[RegTidY * 32 + lane]),
                std::uint32_t(R[RegTidZ * 32 + lane])};
    }

    // access() without telling the observers: a copy checked where it is issued (they hear
    // of it where it lands), a barrier wait that has not completed.
    std::uint8_t* accessUnobserved(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane,
                                   const Instr& in)
    {
        AccessLog* observed = probe;
        probe = nullptr;
        std::uint8_t* p = access(sp, addr, size, write, lane, in);
        if (observed) {
            probe = observed;
            cache = nullptr; // an observed warp keeps no cached region (access)
        }
        return p;
    }

    // Host pointer for an access of `size` bytes by lane, or nullptr after recording a fault.
    [[gnu::always_inline]] std::uint8_t* access(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane,
                                                const Instr& in)
    {
        if (addr & (size - 1))
            return misaligned(sp, addr, size, write, lane, in);
        if (sp == Space::Generic) {
            if (addr - kSharedWindow < kWindowSize) {
                sp = Space::Shared;
                addr -= kSharedWindow;
            } else if (addr - kLocalWindow < kWindowSize) {
                sp = Space::Local;
                addr -= kLocalWindow;
            } else
                sp = Space::Global;
        }
        if (sp == Space::Global || sp == Space::Const) {
            const MemRegion* r = cache;
            if (!(r && addr - r->base < r->size && size <= r->size - (addr - r->base))) {
                // An observed warp leaves `cache` empty: every global access comes here to be noted.
                r = probe ? noteGlobal(sp, addr, size, write, lane) : L->mem.find(addr, size);
                if (!r)
                    return outOfBounds(sp, addr, size, write, lane, in);
                if (!probe)
                    cache = r;
            }
            if (write && r->readOnly)
                return outOfBounds(sp, addr, size, write, lane, in);
            return r->host + (addr - r->base);
        }
        if (sp == Space::Shared) {
            if (addr >= L->sharedSize || size > L->sharedSize - addr)
                return outOfBounds(sp, addr, size, write, lane, in);
            if (probe) [[unlikely]]
                noteAccess(Space::Shared, addr, size, write, lane);
            return blk->shared + addr;
        }
        if (sp == Space::Local) {
            if (addr >= localBytes || size > localBytes - addr)
                return outOfBounds(sp, addr, size, write, lane, in);
            if (probe) [[unlikely]]
                noteAccess(Space::Local, addr, size, write, lane);
            return local + std::size_t(lane) * localBytes + addr;
        }
        return outOfBounds(sp, addr, size, write, lane, in);
    }

    // Where a whole warp's accesses lie: lane l's bytes at lane(l, A[l]) for the address
    // register A the access was checked with.
    struct Span {
        std::uint8_t* base = nullptr;
        std::uint64_t laneStride = 0; // local memory: each lane's own frame
        std::uint64_t delta = 0;      // added to A[l]: the offset, less the window and the region's base
        std::uint8_t* lane(int l, std::uint64_t a) const { return base + std::size_t(l) * laneStride + (a + delta); }
    };

    // The whole warp's accesses at once: lane l's `size` bytes at A[l] + off, for all 32
    // lanes, when each is aligned and inside one space's bounds (one global region). False
    // leaves it to access() lane by lane, which also finds and reports what this declines:
    // the same checks, made for 32 lanes in one pass. An observed warp has all 32 accesses
    // noted here, as access() would note them one by one. regularHalves says that each
    // half-warp's addresses are one address or consecutive elements of `size` bytes (see
    // MemoryHandlers' halvesRegular): then every lane lies between its half's first and last
    // lane, 15 elements apart, so checking lanes 0, 15, 16 and 31 checks them all (aligned,
    // inside the bounds, and outside the 4 GiB windows when those four are).
    [[gnu::always_inline]] bool accessAll(Space sp, const std::uint64_t* A, std::int64_t off, std::uint32_t size,
                                          bool write, Span& span, bool regularHalves = false)
    {
        const std::uint64_t first = A[0] + std::uint64_t(off);
        // Generic addresses: the window of lane 0 for all lanes, or the lanes go one by one.
        std::uint64_t window = 0;
        bool genericGlobal = false;
        if (sp == Space::Generic) {
            window = first - kSharedWindow < kWindowSize ? kSharedWindow
                : first - kLocalWindow < kWindowSize     ? kLocalWindow
                                                         : 0;
            sp = window == kSharedWindow ? Space::Shared : window == kLocalWindow ? Space::Local : Space::Global;
            genericGlobal = window == 0;
        }
        std::uint64_t from = 0, bytes = 0;
        span.laneStride = 0;
        if (sp == Space::Global || sp == Space::Const) {
            // An observed warp keeps `cache` empty, so that access() notes every global access.
            const MemRegion*& cached = probe ? probeCache_ : cache;
            const MemRegion* r = cached;
            if (!(r && first - r->base < r->size && size <= r->size - (first - r->base))) {
                r = L->mem.find(first, size);
                if (!r)
                    return false;
                cached = r;
            }
            if (write && r->readOnly)
                return false;
            span.base = r->host, from = r->base, bytes = r->size;
        } else if (sp == Space::Shared)
            span.base = blk->shared, bytes = L->sharedSize;
        else if (sp == Space::Local)
            span.base = local, bytes = localBytes, span.laneStride = localBytes;
        else
            return false;
        if (bytes < size)
            return false;
        const std::uint64_t last = bytes - size, skew = window + from;
        if (regularHalves) {
            const std::uint64_t ends[4] = {A[0], A[15], A[16], A[31]};
            if (!lanesInside<4>(ends, std::uint64_t(off), size, skew, last, genericGlobal))
                return false;
        } else if (!lanesInside<32>(A, std::uint64_t(off), size, skew, last, genericGlobal))
            return false;
        span.delta = std::uint64_t(off) - skew;
        if (probe) [[unlikely]]
            probe->noteWarp(sp, A, std::uint64_t(off) - window, size, write, regularHalves);
        return true;
    }

    // Hands the accesses noted so far to the observers as `in`'s, for a handler that accesses
    // more than once per lane (the log keeps one access per lane). Nothing when unobserved.
    void deliverAccesses(const Instr& in)
    {
        if (probe && blk->accesses.lanes) {
            blk->observers.memory(*this, in, blk->accesses);
            blk->accesses.clear();
        }
    }

    // The accesses noted so far as an atomic release of an arrive/wait barrier, for an
    // instruction whose other accesses are plain (AccessLog::barrierRelease).
    void deliverBarrierRelease(const Instr& in)
    {
        if (probe && blk->accesses.lanes) {
            blk->accesses.barrierRelease = true;
            deliverAccesses(in);
        }
    }

    // Records a fault at lane (or the first active lane when lane < 0), tells the
    // observers and stops the launch.
    void fault(FaultKind kind, const std::string& what, int lane, const Instr& in);

private:
    // accessAll's check of N lanes' addresses C[l] + off: aligned, at most `last` past the
    // span's start less skew (which also keeps a shared or local lane inside lane 0's
    // window), and for a generic global access in no window. One pass of ORs the compiler
    // vectorises: with last < 2^63, x > last exactly when x or last - x has its top bit set.
    template <int N>
    [[gnu::always_inline]] static bool lanesInside(const std::uint64_t* C, std::uint64_t off, std::uint32_t size,
                                                   std::uint64_t skew, std::uint64_t last, bool genericGlobal)
    {
        std::uint64_t low = 0, outside = 0;
        for (int l = 0; l < N; ++l) {
            const std::uint64_t a = C[l] + off, x = a - skew;
            low |= a;
            outside |= x | (last - x);
        }
        if ((low & (size - 1)) || (outside >> 63))
            return false;
        if (genericGlobal) { // a generic address in a window is not global, whatever region is there
            bool inWindow = false;
            for (int l = 0; l < N; ++l) {
                const std::uint64_t a = C[l] + off;
                inWindow |= (a - kSharedWindow < kWindowSize) | (a - kLocalWindow < kWindowSize);
            }
            if (inWindow)
                return false;
        }
        return true;
    }

    std::uint8_t* misaligned(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane, const Instr& in);
    std::uint8_t* outOfBounds(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane, const Instr& in);
    void raise(const FaultEvent& e);
    // Observed accesses, out of line: a global one reaches noteGlobal through a path access()
    // takes anyway (a region-cache miss), shared and local ones test `probe`. noteGlobal
    // returns the access's region (its own cache, then the map).
    [[gnu::noinline]] void noteAccess(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane);
    [[gnu::noinline]] const MemRegion* noteGlobal(Space sp, std::uint64_t addr, std::uint32_t size, bool write,
                                                  int lane);
    const MemRegion* probeMiss(std::uint64_t addr, std::uint32_t size);
    const MemRegion* probeCache_ = nullptr;
};

} // namespace kw::sim
