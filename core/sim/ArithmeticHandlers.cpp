// The lane loops of integer, float and predicate arithmetic, comparisons and moves,
// instantiated per type and picked by the decoder through ArithmeticHandlers.hpp.
#include "sim/ArithmeticHandlers.hpp"

#include "sim/Arithmetic.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/F32Lanes.hpp"
#include "sim/Half16.hpp"
#include "sim/HalfHandlers.hpp"
#include "sim/HostFma.hpp"
#include "sim/Warp.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <type_traits>

namespace kw::sim {

#ifdef KW_SIM_F32_LANES
const bool kHostFma = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0 && __builtin_cpu_supports("avx2") != 0;
}();
#endif

namespace {

// ---------------------------------------------------------------- handler shapes

// The .ftz (inputs and result) and .sat (result) modifiers of float arithmetic.
template <class T> T ftzIn(const Instr& in, T x)
{
    if constexpr (std::is_floating_point_v<T>)
        return in.ftz ? flushSubnormal(x) : x;
    else
        return x; // setp on integers shares the path
}
template <class T> T ftzSatOut(const Instr& in, T r)
{
    r = ftzIn(in, r);
    return in.sat ? saturate01(r) : r;
}

template <class T, class Op> struct Bin {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        forLanes(m, [&](int l) { d[l] = put<T>(Op::f(get<T>(a[l]), get<T>(b[l]))); });
    }
};

template <class T, class Op> struct Shift {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        forLanes(m, [&](int l) { d[l] = put<T>(Op::f(get<T>(a[l]), std::uint32_t(b[l]))); });
    }
};

// A NaN that f32 arithmetic computes is the canonical NaN 0x7fffffff, whatever the
// operands' payloads, as the H200 gives it (the host would keep a payload, or make
// 0xffc00000 of inf - inf). f64 and the bit operations (copysign) keep theirs.
template <class T, class Op>
constexpr bool kCanonicalNaN = std::is_same_v<T, float> && !std::is_same_v<Op, OpCopysign<T>>;
template <class T, bool Canonical> T nanResult(T r)
{
    if constexpr (Canonical)
        return r != r ? std::bit_cast<T>(0x7fffffffu) : r;
    else
        return r;
}

template <class T, class Op> struct FBin {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        constexpr bool canonical = kCanonicalNaN<T, Op>;
        if (plainRounding(in)) {
            forLanes(m, [&](int l) { d[l] = put<T>(nanResult<T, canonical>(Op::f(get<T>(a[l]), get<T>(b[l])))); });
            return;
        }
        RoundingScope scope(in.round);
        forLanes(m, [&](int l) {
            d[l] = put<T>(
                nanResult<T, canonical>(ftzSatOut(in, Op::f(ftzIn(in, get<T>(a[l])), ftzIn(in, get<T>(b[l]))))));
        });
    }
};

template <class T, class Op> struct Un {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        forLanes(m, [&](int l) { d[l] = put<T>(Op::f(get<T>(a[l]))); });
    }
};

template <class T, class Op> struct FUn {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        RoundingScope scope(in.round);
        forLanes(m, [&](int l) { d[l] = put<T>(ftzSatOut(in, Op::f(ftzIn(in, get<T>(a[l]))))); });
    }
};

// A whole warp's fma.rn.f32 with the host's fused multiply-add instruction, eight lanes at a
// time, where it has one (and AVX2, to move the lanes' low halves): the same single rounding
// as hostFma, without a call per lane.
#ifdef KW_SIM_F32_LANES
[[gnu::target("avx2,fma")]] void fmaWarpF32(std::uint64_t* d, const std::uint64_t* a, const std::uint64_t* b,
                                            const std::uint64_t* c)
{
    // Each group's operands are read before its results are written: d may be a, b or c.
    for (int l = 0; l < 32; l += 8)
        storeLowHalves(d + l, fmaCanonical(lowHalves(a + l), lowHalves(b + l), lowHalves(c + l)));
}
#else
void fmaWarpF32(std::uint64_t*, const std::uint64_t*, const std::uint64_t*, const std::uint64_t*) { }
#endif

template <class T> struct Fma {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        const std::uint64_t* c = w.reg(in.a[2]);
        constexpr bool canonical = std::is_same_v<T, float>;
        if constexpr (std::is_same_v<T, float>) {
            if (m == 0xffffffffu && kHostFma && plainRounding(in)) {
                fmaWarpF32(d, a, b, c);
                return;
            }
        }
        if (plainRounding(in)) {
            forLanes(m, [&](int l) {
                d[l] = put<T>(nanResult<T, canonical>(hostFma(get<T>(a[l]), get<T>(b[l]), get<T>(c[l]))));
            });
            return;
        }
        RoundingScope scope(in.round);
        forLanes(m, [&](int l) {
            const T x = ftzIn(in, get<T>(a[l])), y = ftzIn(in, get<T>(b[l])), z = ftzIn(in, get<T>(c[l]));
            d[l] = put<T>(nanResult<T, canonical>(ftzSatOut(in, T(hostFma(x, y, z)))));
        });
    }
};

// mad.lo / mad.hi on integers (hi: the high half of a*b, plus c).
template <class T, bool Hi> struct MadInt {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        const std::uint64_t* c = w.reg(in.a[2]);
        forLanes(m, [&](int l) {
            T p = Hi ? OpMulHi<T>::f(get<T>(a[l]), get<T>(b[l])) : OpMul<T>::f(get<T>(a[l]), get<T>(b[l]));
            d[l] = put<T>(OpAdd<T>::f(p, get<T>(c[l])));
        });
    }
};

// mul.wide / mad.wide: the full product in a register twice as wide.
template <class T, bool Mad> struct Wide {
    using W = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 4, std::int64_t, std::int32_t>,
                                 std::conditional_t<sizeof(T) == 4, std::uint64_t, std::uint32_t>>;
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        const std::uint64_t* c = w.reg(in.a[2]);
        forLanes(m, [&](int l) {
            W p = W(U_t<W>(W(get<T>(a[l]))) * U_t<W>(W(get<T>(b[l]))));
            if (Mad)
                p = W(U_t<W>(p) + U_t<W>(get<W>(c[l])));
            d[l] = put<W>(p);
        });
    }
};

template <class T> using MadLo = MadInt<T, false>;
template <class T> using MadHi = MadInt<T, true>;

template <class T> struct Popc {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        forLanes(m, [&](int l) { d[l] = std::uint32_t(__builtin_popcountll(std::uint64_t(get<T>(a[l])))); });
    }
};
template <class T> struct Clz {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        forLanes(m, [&](int l) {
            const std::uint64_t v = get<T>(a[l]);
            d[l] = v == 0 ? 8 * sizeof(T) : std::uint32_t(__builtin_clzll(v) - (64 - 8 * sizeof(T)));
        });
    }
};
template <class T> struct Brev {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        forLanes(m, [&](int l) {
            T v = get<T>(a[l]), r = 0;
            for (unsigned i = 0; i < 8 * sizeof(T); ++i)
                r = T(r | (((v >> i) & 1) << (8 * sizeof(T) - 1 - i)));
            d[l] = put<T>(r);
        });
    }
};
// bfind: the position of the most significant non-sign bit, 0xffffffff if none;
// .shiftamt: the left shift that would bring it to the top.
template <class T, bool ShiftAmt> struct Bfind {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        forLanes(m, [&](int l) {
            T v = get<T>(a[l]);
            std::uint64_t u = std::uint64_t(U_t<T>(v));
            if (std::is_signed_v<T> && v < 0)
                u = std::uint64_t(U_t<T>(~v));
            std::uint32_t r = 0xffffffffu;
            if (u) {
                r = 63 - __builtin_clzll(u);
                if (ShiftAmt)
                    r = 8 * sizeof(T) - 1 - r;
            }
            d[l] = r;
        });
    }
};
template <class T> using BfindPlain = Bfind<T, false>;
template <class T> using BfindShiftAmt = Bfind<T, true>;

template <class T> struct Bfe {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        constexpr unsigned bits = 8 * sizeof(T);
        forLanes(m, [&](int l) {
            const unsigned pos = unsigned(b[l] & 0xff), len = unsigned(c[l] & 0xff);
            const std::uint64_t v = std::uint64_t(U_t<T>(get<T>(a[l])));
            std::uint64_t r = 0;
            if (len && pos < bits)
                r = (v >> pos) & (len >= 64 ? ~0ull : ((1ull << len) - 1));
            bool sbit = false;
            if (std::is_signed_v<T> && len)
                sbit = (v >> std::min(pos + len - 1, bits - 1)) & 1;
            if (std::is_signed_v<T> && sbit && len < bits)
                r |= ~0ull << std::min(len, bits);
            d[l] = put<T>(T(r));
        });
    }
};
template <class T> struct Bfi {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]), *e = w.reg(in.a[3]);
        constexpr unsigned bits = 8 * sizeof(T);
        forLanes(m, [&](int l) {
            const unsigned pos = unsigned(c[l] & 0xff), len = unsigned(e[l] & 0xff);
            T r = get<T>(b[l]);
            for (unsigned i = 0; i < len && pos + i < bits; ++i) {
                const T bit = T((get<T>(a[l]) >> i) & 1);
                r = T((r & ~(T(1) << (pos + i))) | (bit << (pos + i)));
            }
            d[l] = put<T>(r);
        });
    }
};

struct Prmt {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        forLanes(m, [&](int l) {
            const std::uint64_t bytes = (std::uint64_t(std::uint32_t(b[l])) << 32) | std::uint32_t(a[l]);
            const std::uint32_t sel = std::uint32_t(c[l]);
            std::uint32_t r = 0;
            for (int i = 0; i < 4; ++i) {
                const std::uint32_t s = (sel >> (4 * i)) & 0xf;
                std::uint32_t byte = std::uint32_t(bytes >> (8 * (s & 7))) & 0xff;
                if (s & 8)
                    byte = (byte & 0x80) ? 0xff : 0;
                r |= byte << (8 * i);
            }
            d[l] = r;
        });
    }
};

struct Lop3 {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        const std::uint32_t lut = std::uint32_t(in.imm);
        forLanes(m, [&](int l) {
            const std::uint32_t x = std::uint32_t(a[l]), y = std::uint32_t(b[l]), z = std::uint32_t(c[l]);
            std::uint32_t r = 0;
            for (int i = 0; i < 8; ++i)
                if (lut & (1u << i))
                    r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
            d[l] = r;
        });
    }
};

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a.
template <bool Left, bool Clamp> struct Shf {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        forLanes(m, [&](int l) {
            std::uint32_t n = std::uint32_t(c[l]);
            n = Clamp ? std::min(n, 32u) : (n & 31);
            const std::uint64_t v = (std::uint64_t(std::uint32_t(b[l])) << 32) | std::uint32_t(a[l]);
            d[l] = Left ? std::uint32_t((v << n) >> 32) : std::uint32_t(v >> n);
        });
    }
};

// setp.cmp[.bool].type p[|q], a, b[, {!}c].
// Calls f with the comparison as a constant (std::integral_constant), so that the lane
// loop it runs has no switch in it.
template <class F> void withCmp(CmpOp c, F&& f)
{
    using enum CmpOp;
    switch (c) {
    case Eq: return f(std::integral_constant<CmpOp, Eq>{});
    case Ne: return f(std::integral_constant<CmpOp, Ne>{});
    case Lt: return f(std::integral_constant<CmpOp, Lt>{});
    case Le: return f(std::integral_constant<CmpOp, Le>{});
    case Gt: return f(std::integral_constant<CmpOp, Gt>{});
    case Ge: return f(std::integral_constant<CmpOp, Ge>{});
    case Lo: return f(std::integral_constant<CmpOp, Lo>{});
    case Ls: return f(std::integral_constant<CmpOp, Ls>{});
    case Hi: return f(std::integral_constant<CmpOp, Hi>{});
    case Hs: return f(std::integral_constant<CmpOp, Hs>{});
    case Equ: return f(std::integral_constant<CmpOp, Equ>{});
    case Neu: return f(std::integral_constant<CmpOp, Neu>{});
    case Ltu: return f(std::integral_constant<CmpOp, Ltu>{});
    case Leu: return f(std::integral_constant<CmpOp, Leu>{});
    case Gtu: return f(std::integral_constant<CmpOp, Gtu>{});
    case Geu: return f(std::integral_constant<CmpOp, Geu>{});
    case Num: return f(std::integral_constant<CmpOp, Num>{});
    case Nan: return f(std::integral_constant<CmpOp, Nan>{});
    }
}

template <class T> struct Setp {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* p = w.reg(in.d[0]);
        std::uint64_t* q = w.reg(in.d[1]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        const BoolOp bop = in.boolOp;
        const bool negC = in.negMask & 4;
        withCmp(in.cmp, [&](auto cmp) {
            if (bop == BoolOp::None && !in.ftz) { // the usual setp: p = a cmp b, q = !p
                forLanes(m, [&](int l) {
                    const bool r = compare<T>(cmp(), get<T>(a[l]), get<T>(b[l]));
                    p[l] = r;
                    q[l] = !r;
                });
                return;
            }
            forLanes(m, [&](int l) {
                const bool r = compare<T>(cmp(), ftzIn(in, get<T>(a[l])), ftzIn(in, get<T>(b[l])));
                const bool cv = (c[l] != 0) != negC;
                p[l] = combine(bop, r, cv);
                q[l] = combine(bop, !r, cv);
            });
        });
    }
};

// set.cmp.dtype.stype: all ones (integer) or 1.0f (f32) when true.
template <class T> struct SetVal {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
        const CmpOp cmp = in.cmp;
        const bool toFloat = in.type == PtxType::F32;
        forLanes(m, [&](int l) {
            const bool r = compare<T>(cmp, get<T>(a[l]), get<T>(b[l]));
            d[l] = toFloat ? (r ? 0x3f800000u : 0u) : (r ? 0xffffffffu : 0u);
        });
    }
};

// and/or/xor/not.pred, each operand possibly negated ("!p").
template <class Op> struct PredOp {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
        const bool na = in.negMask & 1, nb = in.negMask & 2;
        forLanes(m, [&](int l) {
            const bool x = (a[l] != 0) != na, y = (b[l] != 0) != nb;
            d[l] = Op::f(x, y);
        });
    }
};
struct PredAnd {
    static bool f(bool x, bool y) { return x && y; }
};
struct PredOr {
    static bool f(bool x, bool y) { return x || y; }
};
struct PredXor {
    static bool f(bool x, bool y) { return x != y; }
};
struct PredNot {
    static bool f(bool x, bool) { return !x; }
};

struct Selp {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        const bool neg = in.negMask & 4;
        forLanes(m, [&](int l) { d[l] = ((c[l] != 0) != neg) ? a[l] : b[l]; });
    }
};

struct Mov {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const bool neg = in.negMask & 1;
        if (neg)
            forLanes(m, [&](int l) { d[l] = a[l] == 0; });
        else
            forLanes(m, [&](int l) { d[l] = a[l]; });
    }
};

// mov.bN d, {a, b, ...}: pack.
struct Pack {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const unsigned bits = in.packBits;
        const std::uint64_t elemMask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
        forLanes(m, [&](int l) {
            std::uint64_t v = 0;
            for (int k = 0; k < in.na; ++k)
                v |= (w.reg(in.a[k])[l] & elemMask) << (bits * k);
            d[l] = v;
        });
    }
};
struct Unpack {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        const std::uint64_t* a = w.reg(in.a[0]);
        const unsigned bits = in.packBits;
        const std::uint64_t elemMask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
        forLanes(m, [&](int l) {
            const std::uint64_t v = a[l];
            for (int k = 0; k < in.nd; ++k)
                w.reg(in.d[k])[l] = (v >> (bits * k)) & elemMask;
        });
    }
};

// cvta: in.imm is the window base, added (to generic) or negated and added (to a state
// space); modulo 2^64 the two are the same addition.
struct Cvta {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t offset = std::uint64_t(in.imm);
        const bool narrow = sizeOf(in.type) == 4;
        forLanes(m, [&](int l) {
            std::uint64_t v = a[l];
            if (narrow)
                v = std::uint32_t(v);
            v += offset;
            d[l] = narrow ? std::uint32_t(v) : v;
        });
    }
};

struct Testp {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const bool isF64 = in.type == PtxType::F64;
        forLanes(m, [&](int l) {
            const double x = isF64 ? get<double>(a[l]) : double(get<float>(a[l]));
            const int cls = isF64 ? std::fpclassify(get<double>(a[l])) : std::fpclassify(get<float>(a[l]));
            bool r = false;
            switch (in.test) {
            case TestOp::Finite: r = std::isfinite(x); break;
            case TestOp::Infinite: r = std::isinf(x); break;
            case TestOp::Number: r = !std::isnan(x); break;
            case TestOp::NotANumber: r = std::isnan(x); break;
            case TestOp::Normal: r = cls == FP_NORMAL; break;
            case TestOp::Subnormal: r = cls == FP_SUBNORMAL; break;
            }
            d[l] = r;
        });
    }
};

// add.cc/addc/sub.cc/subc/mad{c}.{lo,hi}.cc through the carry register.
template <class U, CarryOp Op> struct CarryArith {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using W = std::conditional_t<sizeof(U) == 4, std::uint64_t, unsigned __int128>;
        constexpr unsigned bits = 8 * sizeof(U);
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        std::uint64_t* cf = w.reg(RegCarry);
        const bool cin = in.carryIn, cout = in.carryOut;
        forLanes(m, [&](int l) {
            const U x = get<U>(a[l]), y = get<U>(b[l]);
            const U carry = cin ? U(cf[l] & 1) : U(0);
            W r = 0;
            if constexpr (Op == CarryOp::Add)
                r = W(x) + W(y) + carry;
            else if constexpr (Op == CarryOp::Sub)
                r = W(x) - W(y) - carry;
            else if constexpr (Op == CarryOp::MadLo)
                r = W(U(W(x) * W(y))) + W(get<U>(c[l])) + carry;
            else
                r = W(U((W(x) * W(y)) >> bits)) + W(get<U>(c[l])) + carry;
            d[l] = put<U>(U(r));
            if (cout)
                cf[l] = std::uint64_t((r >> bits) & 1);
        });
    }
};

template <class T> struct Sad {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        forLanes(m, [&](int l) {
            const T x = get<T>(a[l]), y = get<T>(b[l]);
            const U_t<T> diff = x > y ? U_t<T>(U_t<T>(x) - U_t<T>(y)) : U_t<T>(U_t<T>(y) - U_t<T>(x));
            d[l] = put<T>(T(U_t<T>(get<T>(c[l])) + diff));
        });
    }
};

// dp4a.atype.btype d, a, b, c: c plus the dot product of the four bytes of a and b.
template <bool SA, bool SB> struct Dp4a {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        forLanes(m, [&](int l) {
            std::int64_t acc = get<std::int32_t>(c[l]);
            for (int k = 0; k < 4; ++k) {
                const std::uint32_t ua = (std::uint32_t(a[l]) >> (8 * k)) & 0xff,
                                    ub = (std::uint32_t(b[l]) >> (8 * k)) & 0xff;
                const std::int64_t x = SA ? std::int8_t(ua) : std::int64_t(ua),
                                   y = SB ? std::int8_t(ub) : std::int64_t(ub);
                acc += x * y;
            }
            d[l] = std::uint32_t(acc);
        });
    }
};

template <template <class> class Op, template <class, class> class H> Handler pickInt(PtxType t)
{
    switch (t) {
    case PtxType::S8: return &H<std::int8_t, Op<std::int8_t>>::run;
    case PtxType::S16: return &H<std::int16_t, Op<std::int16_t>>::run;
    case PtxType::S32: return &H<std::int32_t, Op<std::int32_t>>::run;
    case PtxType::S64: return &H<std::int64_t, Op<std::int64_t>>::run;
    case PtxType::U8:
    case PtxType::B8: return &H<std::uint8_t, Op<std::uint8_t>>::run;
    case PtxType::U16:
    case PtxType::B16: return &H<std::uint16_t, Op<std::uint16_t>>::run;
    case PtxType::U32:
    case PtxType::B32: return &H<std::uint32_t, Op<std::uint32_t>>::run;
    case PtxType::U64:
    case PtxType::B64: return &H<std::uint64_t, Op<std::uint64_t>>::run;
    default: return nullptr;
    }
}
template <template <class> class Op, template <class, class> class H> Handler pickFloat(PtxType t)
{
    if (t == PtxType::F32)
        return &H<float, Op<float>>::run;
    if (t == PtxType::F64)
        return &H<double, Op<double>>::run;
    return nullptr;
}
template <template <class> class H> Handler pickIntT(PtxType t)
{
    switch (t) {
    case PtxType::S8: return &H<std::int8_t>::run;
    case PtxType::S16: return &H<std::int16_t>::run;
    case PtxType::S32: return &H<std::int32_t>::run;
    case PtxType::S64: return &H<std::int64_t>::run;
    case PtxType::U8:
    case PtxType::B8: return &H<std::uint8_t>::run;
    case PtxType::U16:
    case PtxType::B16: return &H<std::uint16_t>::run;
    case PtxType::U32:
    case PtxType::B32: return &H<std::uint32_t>::run;
    case PtxType::U64:
    case PtxType::B64: return &H<std::uint64_t>::run;
    default: return nullptr;
    }
}
template <template <class> class H> Handler pickAnyT(PtxType t)
{
    if (t == PtxType::F32)
        return &H<float>::run;
    if (t == PtxType::F64)
        return &H<double>::run;
    return pickIntT<H>(t);
}

} // namespace

Handler arithHandler(ArithOp op, PtxType t)
{
    if (isHalf16(t))
        return halfArithHandler(op, t);
    const bool fl = isFloat(t);
    switch (op) {
    case ArithOp::None: return nullptr;
    case ArithOp::Add: return fl ? pickFloat<OpAdd, FBin>(t) : pickInt<OpAdd, Bin>(t);
    case ArithOp::Sub: return fl ? pickFloat<OpSub, FBin>(t) : pickInt<OpSub, Bin>(t);
    case ArithOp::Mul: return fl ? pickFloat<OpMul, FBin>(t) : pickInt<OpMul, Bin>(t);
    case ArithOp::MulHi: return pickInt<OpMulHi, Bin>(t);
    case ArithOp::Div: return fl ? pickFloat<OpDivF, FBin>(t) : pickInt<OpDiv, Bin>(t);
    case ArithOp::Rem: return pickInt<OpRem, Bin>(t);
    case ArithOp::Min: return fl ? pickFloat<OpMinF, FBin>(t) : pickInt<OpMinI, Bin>(t);
    case ArithOp::Max: return fl ? pickFloat<OpMaxF, FBin>(t) : pickInt<OpMaxI, Bin>(t);
    case ArithOp::And: return t == PtxType::Pred ? &PredOp<PredAnd>::run : pickInt<OpAnd, Bin>(t);
    case ArithOp::Or: return t == PtxType::Pred ? &PredOp<PredOr>::run : pickInt<OpOr, Bin>(t);
    case ArithOp::Xor: return t == PtxType::Pred ? &PredOp<PredXor>::run : pickInt<OpXor, Bin>(t);
    case ArithOp::Copysign: return pickFloat<OpCopysign, FBin>(t);
    case ArithOp::Shl: return pickInt<OpShl, Shift>(t);
    case ArithOp::Shr: return pickInt<OpShr, Shift>(t);
    case ArithOp::Not: return t == PtxType::Pred ? &PredOp<PredNot>::run : pickInt<OpNot, Un>(t);
    case ArithOp::Cnot: return pickInt<OpCnot, Un>(t);
    case ArithOp::Neg: return fl ? pickFloat<OpNeg, FUn>(t) : pickInt<OpNeg, Un>(t);
    case ArithOp::Abs: return fl ? pickFloat<OpAbs, FUn>(t) : pickInt<OpAbs, Un>(t);
    case ArithOp::Sqrt: return pickFloat<OpSqrt, FUn>(t);
    case ArithOp::Rsqrt: return pickFloat<OpRsqrt, FUn>(t);
    case ArithOp::Rcp: return pickFloat<OpRcp, FUn>(t);
    case ArithOp::Ex2: return pickFloat<OpEx2, FUn>(t);
    case ArithOp::Lg2: return pickFloat<OpLg2, FUn>(t);
    case ArithOp::Sin: return pickFloat<OpSin, FUn>(t);
    case ArithOp::Cos: return pickFloat<OpCos, FUn>(t);
    case ArithOp::Tanh: return pickFloat<OpTanh, FUn>(t);
    case ArithOp::Popc: return pickIntT<Popc>(t);
    case ArithOp::Clz: return pickIntT<Clz>(t);
    case ArithOp::Brev: return pickIntT<Brev>(t);
    case ArithOp::Bfind: return pickIntT<BfindPlain>(t);
    case ArithOp::BfindShiftAmt: return pickIntT<BfindShiftAmt>(t);
    case ArithOp::Mad:
        if (t == PtxType::F32)
            return &Fma<float>::run;
        if (t == PtxType::F64)
            return &Fma<double>::run;
        return fl ? nullptr : pickIntT<MadLo>(t);
    case ArithOp::MadHi: return pickIntT<MadHi>(t);
    case ArithOp::Sad: return pickIntT<Sad>(t);
    }
    return nullptr;
}

Handler carryHandler(CarryOp op, PtxType t)
{
    const int size = sizeOf(t);
    if ((size != 4 && size != 8) || isFloat(t))
        return nullptr; // the carry chain is integer arithmetic
    switch (op) {
    case CarryOp::Add:
        return size == 4 ? &CarryArith<std::uint32_t, CarryOp::Add>::run
                         : &CarryArith<std::uint64_t, CarryOp::Add>::run;
    case CarryOp::Sub:
        return size == 4 ? &CarryArith<std::uint32_t, CarryOp::Sub>::run
                         : &CarryArith<std::uint64_t, CarryOp::Sub>::run;
    case CarryOp::MadLo:
        return size == 4 ? &CarryArith<std::uint32_t, CarryOp::MadLo>::run
                         : &CarryArith<std::uint64_t, CarryOp::MadLo>::run;
    case CarryOp::MadHi:
        return size == 4 ? &CarryArith<std::uint32_t, CarryOp::MadHi>::run
                         : &CarryArith<std::uint64_t, CarryOp::MadHi>::run;
    }
    return nullptr;
}

Handler wideHandler(bool mad, PtxType t)
{
    switch (t) {
    case PtxType::S32: return mad ? &Wide<std::int32_t, true>::run : &Wide<std::int32_t, false>::run;
    case PtxType::U32: return mad ? &Wide<std::uint32_t, true>::run : &Wide<std::uint32_t, false>::run;
    case PtxType::S16: return mad ? &Wide<std::int16_t, true>::run : &Wide<std::int16_t, false>::run;
    case PtxType::U16: return mad ? &Wide<std::uint16_t, true>::run : &Wide<std::uint16_t, false>::run;
    default: return nullptr;
    }
}

Handler bfeHandler(PtxType t) { return pickIntT<Bfe>(t); }
Handler bfiHandler(PtxType t) { return pickIntT<Bfi>(t); }

Handler shfHandler(bool left, bool clamp)
{
    if (left)
        return clamp ? &Shf<true, true>::run : &Shf<true, false>::run;
    return clamp ? &Shf<false, true>::run : &Shf<false, false>::run;
}

Handler dp4aHandler(bool signedA, bool signedB)
{
    if (signedA)
        return signedB ? &Dp4a<true, true>::run : &Dp4a<true, false>::run;
    return signedB ? &Dp4a<false, true>::run : &Dp4a<false, false>::run;
}

Handler setpHandler(PtxType t) { return isHalf16(t) ? halfSetpHandler(t) : pickAnyT<Setp>(t); }
Handler setHandler(PtxType t) { return isHalf16(t) ? halfSetHandler(t) : pickAnyT<SetVal>(t); }

void hPrmt(Warp& w, const Instr& in, std::uint32_t m) { Prmt::run(w, in, m); }
void hLop3(Warp& w, const Instr& in, std::uint32_t m) { Lop3::run(w, in, m); }
void hSelp(Warp& w, const Instr& in, std::uint32_t m) { Selp::run(w, in, m); }
void hTestp(Warp& w, const Instr& in, std::uint32_t m) { Testp::run(w, in, m); }
void hMov(Warp& w, const Instr& in, std::uint32_t m) { Mov::run(w, in, m); }
void hPack(Warp& w, const Instr& in, std::uint32_t m) { Pack::run(w, in, m); }
void hUnpack(Warp& w, const Instr& in, std::uint32_t m) { Unpack::run(w, in, m); }
void hCvta(Warp& w, const Instr& in, std::uint32_t m) { Cvta::run(w, in, m); }

} // namespace kw::sim
