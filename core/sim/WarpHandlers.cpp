// Warp collectives: the lanes executing together are the participants; membermask
// restricts them further, as on Volta and later.
#include "sim/ExecHelpers.hpp"
#include "sim/Handlers.hpp"
#include "sim/Warp.hpp"

#include <chrono>

namespace kw::sim {

namespace {
// The lanes of a collective: those executing that its membermask (register `reg`) names.
// They meet, and racecheck passes on what each knew of other warps (Observer::warpCollective).
inline std::uint32_t members(const Warp& w, const Instr& in, std::uint32_t reg, std::uint32_t m)
{
    const std::uint32_t part = std::uint32_t(w.reg(reg)[__builtin_ctz(m)]) & m;
    w.blk->observers.warpCollective(w, in, part);
    return part;
}
} // namespace

// shfl.sync.mode.b32 d[|p], a, b, c, membermask  (PTX ISA pseudo-code)
void hShfl(Warp& w, const Instr& in, std::uint32_t m)
{
    members(w, in, in.a[3], m);
    std::uint64_t src[32];
    std::memcpy(src, w.reg(in.a[0]), sizeof(src));
    const std::uint64_t* B = w.reg(in.a[1]);
    const std::uint64_t* C = w.reg(in.a[2]);
    std::uint64_t* D = w.reg(in.d[0]);
    std::uint64_t* P = w.reg(in.d[1]);
    const ShflMode mode = in.shfl;
    forLanes(m, [&](int lane) {
        const int bval = int(B[lane] & 31);
        const int cval = int(C[lane] & 31);
        const int segmask = int((C[lane] >> 8) & 31);
        const int maxLane = (lane & segmask) | (cval & ~segmask);
        const int minLane = lane & segmask;
        int j = lane;
        bool pval = false;
        switch (mode) {
        case ShflMode::Up:
            j = lane - bval;
            pval = j >= maxLane;
            break;
        case ShflMode::Down:
            j = lane + bval;
            pval = j <= maxLane;
            break;
        case ShflMode::Bfly:
            j = lane ^ bval;
            pval = j <= maxLane;
            break;
        case ShflMode::Idx:
            j = minLane | (bval & ~segmask);
            pval = j <= maxLane;
            break;
        }
        if (!pval)
            j = lane;
        D[lane] = std::uint32_t(src[j & 31]);
        P[lane] = pval ? 1 : 0;
    });
}

void hVote(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint32_t part = members(w, in, in.a[1], m);
    const std::uint64_t* A = w.reg(in.a[0]);
    const bool neg = in.negMask & 1;
    std::uint32_t bits = 0;
    forLanes(part, [&](int l) {
        if ((A[l] != 0) != neg)
            bits |= 1u << l;
    });
    std::uint64_t result = 0;
    switch (in.vote) {
    case VoteMode::All: result = bits == part; break;
    case VoteMode::Any: result = bits != 0; break;
    case VoteMode::Uni: result = bits == 0 || bits == part; break;
    case VoteMode::Ballot: result = bits; break;
    }
    std::uint64_t* D = w.reg(in.d[0]);
    forLanes(m, [&](int l) { D[l] = result; });
}

void hActivemask(Warp& w, const Instr& in, std::uint32_t m)
{
    std::uint64_t* D = w.reg(in.d[0]);
    forLanes(m, [&](int l) { D[l] = m; });
}

void hRedux(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint32_t part = members(w, in, in.a[1], m);
    const std::uint64_t* A = w.reg(in.a[0]);
    const ReduxOp op = in.redux;
    const bool sgn = isSigned(in.type);
    std::uint32_t acc = 0;
    bool first = true;
    forLanes(part, [&](int l) {
        const std::uint32_t v = std::uint32_t(A[l]);
        if (first) {
            acc = v;
            first = false;
            return;
        }
        switch (op) {
        case ReduxOp::Add: acc += v; break;
        case ReduxOp::Min:
            acc = sgn ? std::uint32_t(std::min(std::int32_t(acc), std::int32_t(v))) : std::min(acc, v);
            break;
        case ReduxOp::Max:
            acc = sgn ? std::uint32_t(std::max(std::int32_t(acc), std::int32_t(v))) : std::max(acc, v);
            break;
        case ReduxOp::And: acc &= v; break;
        case ReduxOp::Or: acc |= v; break;
        case ReduxOp::Xor: acc ^= v; break;
        }
    });
    std::uint64_t* D = w.reg(in.d[0]);
    forLanes(m, [&](int l) { D[l] = acc; });
}

void hMatchAny(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint32_t part = members(w, in, in.a[1], m);
    std::uint64_t src[32];
    std::memcpy(src, w.reg(in.a[0]), sizeof(src));
    const bool wide = sizeOf(in.type) == 8;
    std::uint64_t* D = w.reg(in.d[0]);
    forLanes(m, [&](int l) {
        std::uint32_t same = 0;
        forLanes(part, [&](int k) {
            if (wide ? src[k] == src[l] : std::uint32_t(src[k]) == std::uint32_t(src[l]))
                same |= 1u << k;
        });
        D[l] = same;
    });
}

void hMatchAll(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint32_t part = members(w, in, in.a[1], m);
    const std::uint64_t* A = w.reg(in.a[0]);
    const bool wide = sizeOf(in.type) == 8;
    bool all = true;
    const std::uint64_t ref = A[__builtin_ctz(part ? part : m)];
    forLanes(part, [&](int k) {
        if (wide ? A[k] != ref : std::uint32_t(A[k]) != std::uint32_t(ref))
            all = false;
    });
    std::uint64_t* D = w.reg(in.d[0]);
    std::uint64_t* P = w.reg(in.d[1]);
    forLanes(m, [&](int l) {
        D[l] = all ? part : 0;
        P[l] = all;
    });
}

namespace {
std::uint64_t nowNs()
{
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
}
} // namespace

void hClock(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t ns = nowNs();
    const std::uint64_t v = sizeOf(in.type) == 8 ? ns : (ns & 0xffffffffu);
    std::uint64_t* D = w.reg(in.d[0]);
    forLanes(m, [&](int l) { D[l] = v; });
}

void hClockHi(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t v = nowNs() >> 32;
    std::uint64_t* D = w.reg(in.d[0]);
    forLanes(m, [&](int l) { D[l] = v; });
}

} // namespace kw::sim
