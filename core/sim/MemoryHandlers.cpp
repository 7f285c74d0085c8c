// ld/st/atom/red on every state space, with bounds and alignment checks per lane.
#include "data/HalfFloat.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/F32Lanes.hpp"
#include "sim/Half16.hpp"
#include "sim/Handlers.hpp"
#include "sim/LoadFmaChains.hpp"
#include "sim/Warp.hpp"

#include <algorithm>
#include <atomic>
#include <fmt/format.h>

namespace kw::sim {

namespace {
inline std::uint64_t extend(std::uint64_t v, std::uint32_t size, bool isSignedType)
{
    if (!isSignedType || size >= 8)
        return v;
    const int shift = 64 - 8 * static_cast<int>(size);
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift);
}
} // namespace

namespace {
template <std::uint32_t N> struct UintOf;
template <> struct UintOf<1> {
    using type = std::uint8_t;
};
template <> struct UintOf<2> {
    using type = std::uint16_t;
};
template <> struct UintOf<4> {
    using type = std::uint32_t;
};
template <> struct UintOf<8> {
    using type = std::uint64_t;
};

// Whether each half-warp's addresses are one address (stride 0) or consecutive elements
// (stride ES): lane h + l at A[h] + stride * l for h = 0, 16 and l < 16. Then a half's
// values are one load and a fill, or one copy, instead of 16 loads; tiles read this way
// (a 16-wide tile's row read by two rows of threads, or one element per row of threads).
template <std::uint32_t ES>
[[gnu::always_inline]] inline bool halvesRegular(const std::uint64_t* A, std::uint64_t& stride)
{
    stride = A[1] - A[0];
    if (stride != 0 && stride != ES)
        return false;
    // One pass of subtractions and ORs, vectorised; the steps constant, not multiplied.
    std::uint64_t apart = 0;
    if (stride == 0) {
        for (int h = 0; h < 32; h += 16)
            for (int l = 0; l < 16; ++l)
                apart |= A[h + l] - A[h];
    } else {
        for (int h = 0; h < 32; h += 16)
            for (int l = 0; l < 16; ++l)
                apart |= A[h + l] - A[h] - std::uint64_t(ES) * std::uint64_t(l);
    }
    return apart == 0;
}

// Half a warp's values from p: one element for all 16 lanes, or 16 consecutive ones.
template <std::uint32_t ES, bool Sgn>
[[gnu::always_inline]] inline void loadHalf(const std::uint8_t* p, std::uint64_t stride, std::uint64_t* D)
{
    using U = typename UintOf<ES>::type;
    if (stride == 0) {
        U v;
        std::memcpy(&v, p, ES);
        const std::uint64_t x = Sgn ? extend(v, ES, true) : std::uint64_t(v);
        std::fill_n(D, 16, x);
        return;
    }
    U v[16];
    std::memcpy(v, p, sizeof v);
    for (int l = 0; l < 16; ++l)
        D[l] = Sgn ? extend(v[l], ES, true) : std::uint64_t(v[l]);
}

// Half a warp's values to p: 16 consecutive elements, or to one address the last lane's
// value, which is what the lanes written in order leave there.
template <std::uint32_t ES> void storeHalf(std::uint8_t* p, std::uint64_t stride, const std::uint64_t* V)
{
    using U = typename UintOf<ES>::type;
    if (stride == 0) {
        const U v = U(V[15]);
        std::memcpy(p, &v, ES);
        return;
    }
    U v[16];
    for (int l = 0; l < 16; ++l)
        v[l] = U(V[l]);
    std::memcpy(p, v, sizeof v);
}

// A checked whole warp's scalar store when its halves are regular (see halvesRegular):
// the first half before the second, as lane order writes where they overlap.
template <std::uint32_t ES>
void storeHalves(const Warp::Span& span, const std::uint64_t* A, std::uint64_t stride, const std::uint64_t* V)
{
    storeHalf<ES>(span.lane(0, A[0]), stride, V);
    storeHalf<ES>(span.lane(16, A[16]), stride, V + 16);
}

// Whether a whole warp's scalar store of es bytes has regular halves, and their stride.
inline bool storeRegular(std::uint32_t es, const std::uint64_t* A, std::uint64_t& stride)
{
    switch (es) {
    case 1: return halvesRegular<1>(A, stride);
    case 2: return halvesRegular<2>(A, stride);
    case 4: return halvesRegular<4>(A, stride);
    default: return halvesRegular<8>(A, stride);
    }
}

// The common scalar load with its size known at compile time.
template <std::uint32_t ES, bool Sgn> void loadScalar(Warp& w, const Instr& in, std::uint32_t m)
{
    using U = typename UintOf<ES>::type;
    const std::uint64_t* A = w.reg(in.addr);
    std::uint64_t* D = w.reg(in.d[0]);
    const Space sp = in.space;
    const std::int64_t off = in.imm;
    Warp::Span span;
    std::uint64_t stride = 0;
    const bool regular = m == 0xffffffffu && halvesRegular<ES>(A, stride);
    if (m == 0xffffffffu && w.accessAll(sp, A, off, ES, false, span, regular)) {
        if (regular && span.laneStride == 0) {
            // Both halves' places before D, which may be A, is written.
            const std::uint8_t *p0 = span.lane(0, A[0]), *p1 = span.lane(16, A[16]);
            loadHalf<ES, Sgn>(p0, stride, D);
            loadHalf<ES, Sgn>(p1, stride, D + 16);
            return;
        }
        // D may be A: lane l's address is read before its value is written.
        for (int l = 0; l < 32; ++l) {
            U v;
            std::memcpy(&v, span.lane(l, A[l]), ES);
            D[l] = Sgn ? extend(v, ES, true) : std::uint64_t(v);
        }
        return;
    }
    forLanes(m, [&](int l) {
        const std::uint8_t* p = w.access(sp, A[l] + off, ES, false, l, in);
        if (!p)
            return;
        U v;
        std::memcpy(&v, p, ES);
        D[l] = Sgn ? extend(v, ES, true) : std::uint64_t(v);
    });
}
} // namespace

void hLoad(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint32_t es = in.elemSize, total = es * in.vec;
    const bool sgn = isSigned(in.type);
    if (in.vec == 1) {
        switch (es) {
        case 1: return sgn ? loadScalar<1, true>(w, in, m) : loadScalar<1, false>(w, in, m);
        case 2: return sgn ? loadScalar<2, true>(w, in, m) : loadScalar<2, false>(w, in, m);
        case 4: return sgn ? loadScalar<4, true>(w, in, m) : loadScalar<4, false>(w, in, m);
        default: return loadScalar<8, false>(w, in, m);
        }
    }
    const std::uint64_t* A = w.reg(in.addr);
    forLanes(m, [&](int l) {
        const std::uint8_t* p = w.access(in.space, A[l] + in.imm, total, false, l, in);
        if (!p)
            return;
        for (int k = 0; k < in.vec; ++k) {
            std::uint64_t v = 0;
            std::memcpy(&v, p + k * es, es);
            w.reg(in.d[k])[l] = extend(v, es, sgn);
        }
    });
}

namespace {
// Half a warp's f32 values at p, eight lanes at a time: one element for all, or consecutive ones.
#ifdef KW_SIM_F32_LANES
[[gnu::target("avx2,fma")]] inline __m256 eightLanes(const std::uint8_t* p, std::uint64_t stride, int l)
{
    const float* f = reinterpret_cast<const float*>(p);
    return stride == 0 ? _mm256_broadcast_ss(f) : _mm256_loadu_ps(f + l);
}

// halvesRegular<4> four lanes at a time (the compiler leaves that loop scalar here): lane
// h + l at A[h] + stride * l for h = 0, 16 and l < 16, the stride 0 or 4.
[[gnu::target("avx2,fma")]] inline bool halvesRegularF32(const std::uint64_t* A, std::uint64_t& stride)
{
    stride = A[1] - A[0];
    if (stride != 0 && stride != 4)
        return false;
    const __m256i steps = _mm256_set1_epi64x(stride ? -1 : 0);
    __m256i apart = _mm256_setzero_si256();
    for (int h = 0; h < 32; h += 16) {
        const __m256i first = _mm256_set1_epi64x(std::int64_t(A[h]));
        for (int l = 0; l < 16; l += 4) {
            const __m256i offsets
                = _mm256_and_si256(steps, _mm256_setr_epi64x(4 * l, 4 * l + 4, 4 * l + 8, 4 * l + 12));
            const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(A + h + l));
            apart = _mm256_or_si256(apart, _mm256_xor_si256(a, _mm256_add_epi64(first, offsets)));
        }
    }
    return _mm256_testz_si256(apart, apart) != 0;
}

// The loads' checks and the arithmetic in one function compiled for AVX2. Every step's loads
// are checked before anything runs; only the steps before the first whose load declines run.
[[gnu::target("avx2,fma")]] std::uint32_t loadFmaChain(Warp& w, const Instr* at, std::uint32_t steps,
                                                       std::uint64_t written)
{
    // Each step's two loads: the places of their half-warps and whether they broadcast.
    const std::uint8_t* p[LoadFmaChain::kMaxSteps][2][2];
    std::uint64_t stride[LoadFmaChain::kMaxSteps][2];
    // The x loads of a chain mostly share one address register and the y loads another.
    std::uint32_t checked[2] = {~0u, ~0u};
    std::uint64_t checkedStride[2] = {0, 0};
    auto load = [&](std::uint32_t t, int k) {
        const Instr& ld = at[3 * t + k];
        const std::uint64_t* A = w.reg(ld.addr);
        if (ld.addr != checked[k]) {
            if (!halvesRegularF32(A, checkedStride[k]))
                return false;
            checked[k] = ld.addr;
        }
        Warp::Span span;
        if (!w.accessAll(ld.space, A, ld.imm, 4, false, span, true) || span.laneStride != 0)
            return false;
        stride[t][k] = checkedStride[k];
        p[t][k][0] = span.lane(0, A[0]);
        p[t][k][1] = span.lane(16, A[16]);
        return true;
    };
    // Every step's x load (k = 0), or every y load (k = 1), through one address register of
    // one explicit space at offsets alike modulo 4 (a tile's row or column): checked at the
    // lowest and the highest offset, in one span, which bounds every offset between them.
    auto alike = [&](int k) {
        const Instr& first = at[k];
        if (first.space != Space::Shared && first.space != Space::Global)
            return false;
        std::int64_t low = first.imm, high = first.imm;
        for (std::uint32_t t = 1; t < steps; ++t) {
            const Instr& ld = at[3 * t + k];
            if (ld.addr != first.addr || ld.space != first.space || ((ld.imm - first.imm) & 3))
                return false;
            low = std::min(low, ld.imm);
            high = std::max(high, ld.imm);
        }
        const std::uint64_t* A = w.reg(first.addr);
        std::uint64_t halves = 0;
        Warp::Span lo, hi;
        if (!halvesRegularF32(A, halves) || !w.accessAll(first.space, A, low, 4, false, lo, true)
            || !w.accessAll(first.space, A, high, 4, false, hi, true) || lo.laneStride || hi.laneStride
            || lo.base != hi.base || hi.delta - lo.delta != std::uint64_t(high - low))
            return false;
        for (std::uint32_t t = 0; t < steps; ++t) {
            const std::int64_t from = at[3 * t + k].imm - low;
            stride[t][k] = halves;
            p[t][k][0] = lo.lane(0, A[0]) + from;
            p[t][k][1] = lo.lane(16, A[16]) + from;
        }
        return true;
    };
    // Otherwise load by load, as far as they pass.
    std::uint32_t ready = steps;
    for (int k = 0; k < 2; ++k)
        if (!alike(k))
            for (std::uint32_t t = 0; t < ready; ++t)
                if (!load(t, k))
                    ready = t;
    if (ready == 0)
        return 0;
    if (ready < steps) { // the steps before run, writing every register
        steps = ready;
        written = ~std::uint64_t(0);
    }
    // The four groups of eight lanes side by side, each sum carried from step to step in a
    // vector register. A NaN is made canonical where it is written: a NaN sum stays a NaN
    // through every later fma, so the last one is canonical as step by step. Each group reads
    // c before it writes, and the registers `written` names are written in the order of the
    // instructions one by one (the loads' before the fma's), so that the last write of a
    // register is the one that stays. The loads' registers are neither c nor an address
    // (LoadFmaChains).
    const std::uint64_t* C = w.reg(at[2].a[2]);
    __m256 sum[4];
    for (int g = 0; g < 4; ++g)
        sum[g] = lowHalves(C + 8 * g);
    for (std::uint32_t t = 0; t < steps; ++t) {
        __m256 x[4], y[4];
        for (int g = 0; g < 4; ++g) {
            const int h = g >> 1, l = (g & 1) * 8;
            x[g] = eightLanes(p[t][0][h], stride[t][0], l);
            y[g] = eightLanes(p[t][1][h], stride[t][1], l);
            // The product is the same in either operand order.
            sum[g] = _mm256_fmadd_ps(x[g], y[g], sum[g]);
        }
        const std::uint64_t bits = written >> (3 * t);
        if (bits & 7) [[unlikely]] {
            for (int k = 0; k < 3; ++k)
                if (bits >> k & 1) {
                    std::uint64_t* D = w.reg(at[3 * t + k].d[0]);
                    for (int g = 0; g < 4; ++g)
                        storeLowHalves(D + 8 * g, k == 0 ? x[g] : k == 1 ? y[g] : canonicalNan(sum[g]));
                }
        }
    }
    return 3 * steps;
}
#endif
} // namespace

std::uint32_t hLoadFmaChainF32(Warp& w, const Instr* at, std::uint32_t length, std::uint64_t written)
{
#ifdef KW_SIM_F32_LANES
    return kHostFma && w.mask == 0xffffffffu ? loadFmaChain(w, at, length / 3, written) : 0;
#else
    (void)w, (void)at, (void)length, (void)written;
    return 0;
#endif
}

void hStore(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint32_t es = in.elemSize, total = es * in.vec;
    const std::uint64_t* A = w.reg(in.addr);
    Warp::Span span;
    std::uint64_t stride = 0;
    const bool regular = m == 0xffffffffu && in.vec == 1 && storeRegular(es, A, stride);
    if (m == 0xffffffffu && w.accessAll(in.space, A, in.imm, total, true, span, regular)) {
        if (regular && span.laneStride == 0) {
            const std::uint64_t* V = w.reg(in.a[0]);
            switch (es) {
            case 1: storeHalves<1>(span, A, stride, V); break;
            case 2: storeHalves<2>(span, A, stride, V); break;
            case 4: storeHalves<4>(span, A, stride, V); break;
            default: storeHalves<8>(span, A, stride, V); break;
            }
            return;
        }
        for (int k = 0; k < in.vec; ++k) {
            const std::uint64_t* V = w.reg(in.a[k]);
            for (int l = 0; l < 32; ++l)
                std::memcpy(span.lane(l, A[l]) + k * es, &V[l], es);
        }
        return;
    }
    forLanes(m, [&](int l) {
        std::uint8_t* p = w.access(in.space, A[l] + in.imm, total, true, l, in);
        if (!p)
            return;
        for (int k = 0; k < in.vec; ++k) {
            const std::uint64_t v = w.reg(in.a[k])[l];
            std::memcpy(p + k * es, &v, es);
        }
    });
}

void hLoadParam(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint32_t es = in.elemSize, total = es * in.vec;
    const auto& params = w.L->params;
    if (in.imm < 0 || std::uint64_t(in.imm) + total > params.size()) {
        w.fault(FaultKind::OutOfBounds,
                fmt::format("parameter read of {} bytes at offset {} outside the {} parameter bytes", total, in.imm,
                            params.size()),
                -1, in);
        return;
    }
    for (int k = 0; k < in.vec; ++k) {
        std::uint64_t v = 0;
        std::memcpy(&v, params.data() + in.imm + k * es, es);
        v = extend(v, es, isSigned(in.type));
        std::uint64_t* D = w.reg(in.d[k]);
        forLanes(m, [&](int l) { D[l] = v; });
    }
}

namespace {

template <class U> U atomicApply(AtomOp op, PtxType type, U* p, U b, U c)
{
    std::atomic_ref<U> ref(*p);
    switch (op) {
    case AtomOp::Exch: return ref.exchange(b);
    case AtomOp::Cas: {
        U expected = b;
        ref.compare_exchange_strong(expected, c);
        return expected;
    }
    case AtomOp::And: return ref.fetch_and(b);
    case AtomOp::Or: return ref.fetch_or(b);
    case AtomOp::Xor: return ref.fetch_xor(b);
    case AtomOp::Add:
        if (!isFloat(type))
            return ref.fetch_add(b);
        if (type == PtxType::F16x2 || type == PtxType::BF16x2) { // each half added on its own
            const bool bf = type == PtxType::BF16x2;
            U old = ref.load(std::memory_order_relaxed);
            for (;;) {
                const U nv = U(addHalf16(bf, std::uint16_t(old), std::uint16_t(b)))
                    | U(U(addHalf16(bf, std::uint16_t(old >> 16), std::uint16_t(b >> 16))) << 16);
                if (ref.compare_exchange_weak(old, nv))
                    return old;
            }
        }
        break;
    default: break;
    }
    using S = std::make_signed_t<U>;
    using F = std::conditional_t<sizeof(U) == 4, float, double>;
    U old = ref.load(std::memory_order_relaxed);
    for (;;) {
        U nv = old;
        switch (op) {
        case AtomOp::Add: nv = put<F>(get<F>(old) + get<F>(b)); break;
        case AtomOp::Min:
            if (isFloat(type))
                nv = put<F>(std::fmin(get<F>(old), get<F>(b)));
            else if (isSigned(type))
                nv = U(std::min(S(old), S(b)));
            else
                nv = std::min(old, b);
            break;
        case AtomOp::Max:
            if (isFloat(type))
                nv = put<F>(std::fmax(get<F>(old), get<F>(b)));
            else if (isSigned(type))
                nv = U(std::max(S(old), S(b)));
            else
                nv = std::max(old, b);
            break;
        case AtomOp::Inc: nv = old >= b ? 0 : old + 1; break;
        case AtomOp::Dec: nv = (old == 0 || old > b) ? b : old - 1; break;
        default: break;
        }
        if (ref.compare_exchange_weak(old, nv))
            return old;
    }
}

template <class U> void atom(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* A = w.reg(in.addr);
    const std::uint64_t* B = w.reg(in.a[0]);
    const std::uint64_t* C = w.reg(in.a[1]);
    std::uint64_t* D = w.reg(in.d[0]);
    const AtomOp op = in.atom;
    forLanes(m, [&](int l) {
        std::uint8_t* p = w.access(in.space, A[l] + in.imm, sizeof(U), true, l, in);
        if (!p)
            return;
        D[l] = atomicApply<U>(op, in.type, reinterpret_cast<U*>(p), U(B[l]), U(C[l]));
    });
}

} // namespace

// 16-bit atomics (add on f16/bf16, cas, exch) through the aligned 32-bit word holding them.
void hAtom16(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* A = w.reg(in.addr);
    const std::uint64_t* B = w.reg(in.a[0]);
    const std::uint64_t* C = w.reg(in.a[1]);
    std::uint64_t* D = w.reg(in.d[0]);
    const AtomOp op = in.atom;
    forLanes(m, [&](int l) {
        const std::uint64_t addr = A[l] + in.imm;
        std::uint8_t* p = w.access(in.space, addr, 2, true, l, in);
        if (!p)
            return;
        const unsigned shift = unsigned(reinterpret_cast<std::uintptr_t>(p) & 2) * 8;
        auto* word = reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t(3));
        std::atomic_ref<std::uint32_t> ref(*word);
        std::uint32_t old = ref.load(std::memory_order_relaxed);
        for (;;) {
            const auto cur = std::uint16_t(old >> shift);
            std::uint16_t nv = cur;
            const auto b = std::uint16_t(B[l]);
            switch (op) {
            case AtomOp::Exch: nv = b; break;
            case AtomOp::Cas: nv = cur == b ? std::uint16_t(C[l]) : cur; break;
            case AtomOp::Add:
                nv = isHalf16(in.type) ? addHalf16(in.type == PtxType::BF16, cur, b) : std::uint16_t(cur + b);
                break;
            default: break;
            }
            const std::uint32_t next = (old & ~(0xffffu << shift)) | (std::uint32_t(nv) << shift);
            if (ref.compare_exchange_weak(old, next)) {
                D[l] = cur;
                return;
            }
        }
    });
}

void hAtom32(Warp& w, const Instr& in, std::uint32_t m) { atom<std::uint32_t>(w, in, m); }
void hAtom64(Warp& w, const Instr& in, std::uint32_t m) { atom<std::uint64_t>(w, in, m); }

void hFence(Warp& w, const Instr& in, std::uint32_t m) { w.blk->observers.fence(w, in, m); }

} // namespace kw::sim
