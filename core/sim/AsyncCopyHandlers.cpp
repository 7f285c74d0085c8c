// cp.async and its groups. A copy's addresses are checked where it is issued (a fault there
// points at the cp.async); the bytes move when the lane waits for the copy's group, and the
// observers see the read and the write then, reported at the cp.async's line.
#include "sim/ExecHelpers.hpp"
#include "sim/Handlers.hpp"
#include "sim/Mbarrier.hpp"
#include "sim/Warp.hpp"

#include <cstring>
#include <fmt/format.h>
#include <utility>

namespace kw::sim {

namespace {

// The source bytes a copy reads: all of them as one aligned access, or, for a shorter
// source size, its first and last byte, which bound the rest.
bool sourceReadable(Warp& w, const PendingCopy& c, const Instr& in)
{
    if (c.srcBytes == c.bytes)
        return w.accessUnobserved(Space::Global, c.src, c.bytes, false, c.lane, in);
    return c.srcBytes == 0
        || (w.accessUnobserved(Space::Global, c.src, 1, false, c.lane, in)
            && w.accessUnobserved(Space::Global, c.src + c.srcBytes - 1, 1, false, c.lane, in));
}

void land(Warp& w, std::uint32_t lanes, std::optional<std::uint32_t> keep)
{
    for (const PendingCopy& c : w.async.due(lanes, keep)) {
        std::uint8_t bytes[16] = {};
        if (c.srcBytes == c.bytes) {
            const std::uint8_t* p = w.access(Space::Global, c.src, c.bytes, false, c.lane, *c.issued);
            if (!p)
                return;
            std::memcpy(bytes, p, c.bytes);
        } else
            for (std::uint32_t i = 0; i < c.srcBytes; ++i) {
                const std::uint8_t* p = w.access(Space::Global, c.src + i, 1, false, c.lane, *c.issued);
                if (!p)
                    return;
                bytes[i] = *p;
                w.deliverAccesses(*c.issued);
            }
        w.deliverAccesses(*c.issued);
        std::uint8_t* d = w.access(Space::Shared, c.dst, c.bytes, true, c.lane, *c.issued);
        if (!d)
            return;
        std::memcpy(d, bytes, c.bytes);
        w.deliverAccesses(*c.issued);
    }
}

} // namespace

void hCpAsync(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* D = w.reg(in.addr);
    const std::uint64_t* S = w.reg(in.a[0]);
    const std::uint64_t* N = w.reg(in.a[1]);
    const std::uint64_t srcOffset = w.reg(in.a[2])[0];
    const std::uint32_t size = in.elemSize;
    const bool ignoreSrcPredicate = in.type2 == PtxType::Pred;
    for (std::uint32_t lanes = m; lanes; lanes &= lanes - 1) {
        const int l = __builtin_ctz(lanes);
        std::uint64_t srcBytes = N[l];
        if (ignoreSrcPredicate)
            srcBytes = ((N[l] != 0) != bool(in.negMask & 2)) ? 0 : size;
        if (srcBytes > size) {
            w.fault(FaultKind::Other,
                    fmt::format("cp.async: a source size of {} bytes is larger than the copy's {}", srcBytes, size), l,
                    in);
            return;
        }
        PendingCopy c;
        c.dst = D[l] + std::uint64_t(in.imm);
        c.src = S[l] + srcOffset;
        c.bytes = size;
        c.srcBytes = std::uint32_t(srcBytes);
        c.lane = l;
        c.issued = &in;
        // The destination whole and aligned to the copy's size; the source as far as it is read.
        if (!w.accessUnobserved(Space::Shared, c.dst, size, true, l, in))
            return;
        if (!sourceReadable(w, c, in))
            return;
        w.async.add(c);
    }
}

void hCpAsyncCommit(Warp& w, const Instr&, std::uint32_t m) { w.async.commit(m); }

void hCpAsyncWait(Warp& w, const Instr& in, std::uint32_t m) { land(w, m, std::uint32_t(w.reg(in.a[0])[0])); }

void hCpAsyncWaitAll(Warp& w, const Instr&, std::uint32_t m)
{
    w.async.commit(m);
    land(w, m, 0);
}

// The copies complete here, one of the orders a GPU may give (they may complete any time
// after they are issued); without .noinc the barrier counted one more pending arrival
// for them, which their completion takes back, so only .noinc arrives.
void hCpAsyncMbarrierArrive(Warp& w, const Instr& in, std::uint32_t m)
{
    land(w, m, std::nullopt);
    if (!(in.imm & 1))
        return;
    const std::uint64_t* A = w.reg(in.addr);
    const std::uint64_t offset = w.reg(in.a[2])[0];
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        if (!mbarrierArrive(w, in, l, A[l] + offset, {}))
            return;
    }
}

namespace {

// `size` bytes from src to dst, 16 at a time, each chunk's read and write delivered to the
// observers as they happen. PTX asks for 16-byte aligned addresses and a multiple of 16.
bool copyBulk(Warp& w, const Instr& in, int lane, Space dstSpace, std::uint64_t dst, Space srcSpace, std::uint64_t src,
              std::uint32_t size)
{
    if (size % 16) {
        w.fault(FaultKind::Other,
                fmt::format("cp.async.bulk of {} bytes: a bulk copy moves a multiple of 16 bytes", size), lane, in);
        return false;
    }
    for (std::uint32_t at = 0; at < size; at += 16) {
        const std::uint8_t* from = w.access(srcSpace, src + at, 16, false, lane, in);
        if (!from)
            return false;
        std::uint8_t chunk[16];
        std::memcpy(chunk, from, 16);
        w.deliverAccesses(in);
        std::uint8_t* to = w.access(dstSpace, dst + at, 16, true, lane, in);
        if (!to)
            return false;
        std::memcpy(to, chunk, 16);
        w.deliverAccesses(in);
    }
    return true;
}

// A bulk copy into shared memory, completed on the barrier at [a[3]] + target.
void bulkIntoShared(Warp& w, const Instr& in, std::uint32_t m, Space srcSpace)
{
    const std::uint64_t* D = w.reg(in.addr);
    const std::uint64_t* S = w.reg(in.a[0]);
    const std::uint64_t* N = w.reg(in.a[1]);
    const std::uint64_t* B = w.reg(in.a[3]);
    const std::uint64_t srcOffset = w.reg(in.a[2])[0];
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        const auto size = std::uint32_t(N[l]);
        if (!copyBulk(w, in, l, Space::Shared, D[l] + std::uint64_t(in.imm), srcSpace, S[l] + srcOffset, size))
            return;
        if (!mbarrierTransaction(w, in, l, B[l] + in.target, -std::int64_t(size)))
            return;
        w.deliverBarrierRelease(in);
    }
}

} // namespace

void hCpAsyncBulkToShared(Warp& w, const Instr& in, std::uint32_t m) { bulkIntoShared(w, in, m, Space::Global); }

void hCpAsyncBulkSharedToShared(Warp& w, const Instr& in, std::uint32_t m) { bulkIntoShared(w, in, m, Space::Shared); }

void hCpAsyncBulkToGlobal(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* D = w.reg(in.addr);
    const std::uint64_t* S = w.reg(in.a[0]);
    const std::uint64_t* N = w.reg(in.a[1]);
    const std::uint64_t srcOffset = w.reg(in.a[2])[0];
    for (std::uint32_t k = m; k; k &= k - 1) {
        const int l = __builtin_ctz(k);
        if (!copyBulk(w, in, l, Space::Global, D[l] + std::uint64_t(in.imm), Space::Shared, S[l] + srcOffset,
                      std::uint32_t(N[l])))
            return;
    }
}

} // namespace kw::sim
