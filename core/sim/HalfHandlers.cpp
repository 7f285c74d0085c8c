// 16-bit float lanes (f16, f16x2, bf16, bf16x2): each 16-bit value is widened exactly,
// computed once and rounded once; a NaN result is the canonical NaN.
#include "sim/HalfHandlers.hpp"

#include "sim/Arithmetic.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/Half16.hpp"
#include "sim/HostFma.hpp"
#include "sim/Warp.hpp"

#include <cmath>

namespace kw::sim {

namespace {

std::uint16_t half(std::uint64_t r, int h) { return std::uint16_t(r >> (16 * h)); }

// Applies f(a, b, c) -> 16 bits to each 16-bit value of the registers.
template <class F> void lanes16(Warp& w, const Instr& in, std::uint32_t m, int sources, F&& f)
{
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[sources > 1 ? 1 : 0]),
                        *c = w.reg(in.a[sources > 2 ? 2 : 0]);
    const int n = halfLanes(in.type);
    forLanes(m, [&](int l) {
        std::uint64_t r = 0;
        for (int h = 0; h < n; ++h)
            r |= std::uint64_t(f(half(a[l], h), half(b[l], h), half(c[l], h))) << (16 * h);
        d[l] = r;
    });
}

// .sat clamps to [0, 1] (NaN and -0 to +0); .relu clamps negative results and -0 to +0
// (NaN stays NaN).
inline double clampResult(const Instr& in, double v)
{
    if (in.sat)
        return saturate01(v) + 0.0;
    if (in.relu && !(v > 0) && v == v)
        return 0.0;
    return v;
}

// + - *: computed in double. Exact but for bf16 + and - far apart; there the double's
// 53 bits are more than twice bf16's 8 plus 2, so its rounding, then bf16's, is the
// correctly rounded result.
template <bool Bf, template <class> class Op> struct HBin {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using F = Fmt16<Bf>;
        lanes16(w, in, m, 2, [&](std::uint16_t x, std::uint16_t y, std::uint16_t) {
            return F::fromDouble(clampResult(in, Op<double>::f(F::toFloat(x), F::toFloat(y))));
        });
    }
};

// fma: a*b is exact in double; the sum rounded to odd (HostFma.hpp) is rounded once more, to 16 bits.
template <bool Bf> struct HFma {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using F = Fmt16<Bf>;
        lanes16(w, in, m, 3, [&](std::uint16_t x, std::uint16_t y, std::uint16_t z) {
            return F::fromDouble(clampResult(in, fmaRoundedToOdd(F::toFloat(x), F::toFloat(y), F::toFloat(z))));
        });
    }
};

// min/max return one operand's bits: a NaN operand yields the other (both NaN, or any
// NaN with .NaN: the canonical NaN); -0 is below +0.
template <bool Bf, bool IsMax> struct HMinMax {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using F = Fmt16<Bf>;
        lanes16(w, in, m, 2, [&](std::uint16_t x, std::uint16_t y, std::uint16_t) -> std::uint16_t {
            const bool nx = F::isNaN(x), ny = F::isNaN(y);
            if ((nx && ny) || (in.nanMode && (nx || ny)))
                return kCanonicalNaN16;
            if (nx)
                return y;
            if (ny)
                return x;
            const float fx = F::toFloat(x), fy = F::toFloat(y);
            if (fx == fy)
                return (std::signbit(fx) == IsMax) ? y : x; // min takes the negative zero, max the positive
            return (fx < fy) != IsMax ? x : y;
        });
    }
};

// neg and abs change the sign bit only; a NaN operand gives the canonical NaN.
template <bool Bf, bool IsAbs> struct HSign {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using F = Fmt16<Bf>;
        lanes16(w, in, m, 1, [&](std::uint16_t x, std::uint16_t, std::uint16_t) -> std::uint16_t {
            if (F::isNaN(x))
                return kCanonicalNaN16;
            return IsAbs ? std::uint16_t(x & 0x7fffu) : std::uint16_t(x ^ 0x8000u);
        });
    }
};

// tanh.approx, ex2.approx: the host function of the float, rounded once (the GPU's are approximations).
template <bool Bf, template <class> class Op> struct HApprox {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using F = Fmt16<Bf>;
        lanes16(w, in, m, 1, [&](std::uint16_t x, std::uint16_t, std::uint16_t) {
            return F::fromDouble(Op<float>::f(F::toFloat(x)));
        });
    }
};

// setp.cmp.{f16,bf16}: compares the low 16 bits as floats.
template <bool Bf> struct HSetp {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using F = Fmt16<Bf>;
        std::uint64_t* p = w.reg(in.d[0]);
        std::uint64_t* q = w.reg(in.d[1]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
        const CmpOp cmp = in.cmp;
        const BoolOp bop = in.boolOp;
        const bool negC = in.negMask & 4;
        forLanes(m, [&](int l) {
            const bool r = compare<float>(cmp, F::toFloat(half(a[l], 0)), F::toFloat(half(b[l], 0)));
            const bool cv = (c[l] != 0) != negC;
            p[l] = combine(bop, r, cv);
            q[l] = combine(bop, !r, cv);
        });
    }
};

// set.cmp.dtype.stype with a 16-bit float source (in.type2): per source value, 1.0 in a
// float destination (f16 0x3c00, bf16 0x3f80, f32 1.0f) or all ones of its width; with a
// packed source each half of the destination holds one result.
template <bool Bf> struct HSet {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        using F = Fmt16<Bf>;
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
        const CmpOp cmp = in.cmp;
        const int n = halfLanes(in.type2);
        const int width = n == 2 ? 16 : sizeOf(in.type) * 8;
        std::uint64_t one = width >= 64 ? ~0ull : (1ull << width) - 1;
        if (in.type == PtxType::F16 || in.type == PtxType::F16x2)
            one = 0x3c00u;
        if (in.type == PtxType::BF16 || in.type == PtxType::BF16x2)
            one = 0x3f80u;
        if (in.type == PtxType::F32)
            one = 0x3f800000u;
        forLanes(m, [&](int l) {
            std::uint64_t r = 0;
            for (int h = 0; h < n; ++h)
                if (compare<float>(cmp, F::toFloat(half(a[l], h)), F::toFloat(half(b[l], h))))
                    r |= one << (16 * h);
            d[l] = r;
        });
    }
};

template <bool Bf> Handler pick(ArithOp op)
{
    switch (op) {
    case ArithOp::Add: return &HBin<Bf, OpAdd>::run;
    case ArithOp::Sub: return &HBin<Bf, OpSub>::run;
    case ArithOp::Mul: return &HBin<Bf, OpMul>::run;
    case ArithOp::Min: return &HMinMax<Bf, false>::run;
    case ArithOp::Max: return &HMinMax<Bf, true>::run;
    case ArithOp::Neg: return &HSign<Bf, false>::run;
    case ArithOp::Abs: return &HSign<Bf, true>::run;
    case ArithOp::Mad: return &HFma<Bf>::run;
    case ArithOp::Tanh: return &HApprox<Bf, OpTanh>::run;
    case ArithOp::Ex2: return &HApprox<Bf, OpEx2>::run;
    default: return nullptr;
    }
}

} // namespace

Handler halfArithHandler(ArithOp op, PtxType t) { return isBf16(t) ? pick<true>(op) : pick<false>(op); }
Handler halfSetpHandler(PtxType t) { return isBf16(t) ? &HSetp<true>::run : &HSetp<false>::run; }
Handler halfSetHandler(PtxType t) { return isBf16(t) ? &HSet<true>::run : &HSet<false>::run; }

} // namespace kw::sim
