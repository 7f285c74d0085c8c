// cvt between every pair of integer, f16, bf16, f32 and f64 types, with the integer
// (.rni/.rzi/.rmi/.rpi) and float (.rn/.rz/.rm/.rp) roundings, .sat and .ftz; to f16 and
// bf16 (and f32 pairs to f16x2/bf16x2) also .relu and .satfinite, rounded once from the
// exact source value.
#include "sim/ArithmeticHandlers.hpp"

#include "data/HalfFloat.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/Half16.hpp"
#include "sim/Warp.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

namespace kw::sim {

namespace {

struct Value {
    enum Kind { Int, Uint, Flt } kind;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double f = 0;
    float f32 = 0;
    bool isF32 = false;
};

inline Value readValue(PtxType t, std::uint64_t bits, bool ftz)
{
    Value v{Value::Int};
    switch (t) {
    case PtxType::S8: v.i = get<std::int8_t>(bits); break;
    case PtxType::S16: v.i = get<std::int16_t>(bits); break;
    case PtxType::S32: v.i = get<std::int32_t>(bits); break;
    case PtxType::S64: v.i = get<std::int64_t>(bits); break;
    case PtxType::U8:
    case PtxType::B8:
        v.kind = Value::Uint;
        v.u = get<std::uint8_t>(bits);
        break;
    case PtxType::U16:
    case PtxType::B16:
        v.kind = Value::Uint;
        v.u = get<std::uint16_t>(bits);
        break;
    case PtxType::U32:
    case PtxType::B32:
        v.kind = Value::Uint;
        v.u = get<std::uint32_t>(bits);
        break;
    case PtxType::U64:
    case PtxType::B64:
        v.kind = Value::Uint;
        v.u = bits;
        break;
    case PtxType::F16:
        v.kind = Value::Flt;
        v.f32 = halfToFloat(std::uint16_t(bits));
        v.f = v.f32;
        v.isF32 = true;
        break;
    case PtxType::BF16:
        v.kind = Value::Flt;
        v.f32 = bfloat16ToFloat(std::uint16_t(bits));
        v.f = v.f32;
        v.isF32 = true;
        break;
    case PtxType::F32:
        v.kind = Value::Flt;
        v.f32 = get<float>(bits);
        if (ftz)
            v.f32 = flushSubnormal(v.f32);
        v.f = v.f32;
        v.isF32 = true;
        break;
    case PtxType::F64:
        v.kind = Value::Flt;
        v.f = get<double>(bits);
        break;
    default: break;
    }
    return v;
}

inline double roundIntegral(double x, RoundMode r)
{
    switch (r) {
    case RoundMode::Rni: return std::nearbyint(x); // host default: nearest even
    case RoundMode::Rzi: return std::trunc(x);
    case RoundMode::Rmi: return std::floor(x);
    case RoundMode::Rpi: return std::ceil(x);
    default: return x;
    }
}

template <class I> inline std::uint64_t floatToInt(double x)
{
    if (std::isnan(x))
        return 0;
    if (x <= double(std::numeric_limits<I>::min()))
        return put<I>(std::numeric_limits<I>::min());
    if (x >= double(std::numeric_limits<I>::max()))
        return put<I>(std::numeric_limits<I>::max());
    return put<I>(I(x));
}

template <class I> inline std::uint64_t clampInt(const Value& v, bool sat)
{
    if (!sat) {
        const std::uint64_t raw = v.kind == Value::Int ? std::uint64_t(v.i) : v.u;
        return put<I>(I(raw));
    }
    if (v.kind == Value::Int) {
        if (v.i < 0 && !std::is_signed_v<I>)
            return 0;
        if (std::is_signed_v<I> && v.i < std::int64_t(std::numeric_limits<I>::min()))
            return put<I>(std::numeric_limits<I>::min());
        if (v.i > 0 && std::uint64_t(v.i) > std::uint64_t(std::numeric_limits<I>::max()))
            return put<I>(std::numeric_limits<I>::max());
        return put<I>(I(v.i));
    }
    if (v.u > std::uint64_t(std::numeric_limits<I>::max()))
        return put<I>(std::numeric_limits<I>::max());
    return put<I>(I(v.u));
}

inline bool integralRounding(RoundMode r)
{
    return r == RoundMode::Rni || r == RoundMode::Rzi || r == RoundMode::Rmi || r == RoundMode::Rpi;
}

// A 16-bit float destination: the source value (exact in a double, or an integer's sign and
// magnitude) rounded once in the cvt's direction; NaN gives a NaN as below. .sat clamps
// to [0, 1] first, .relu takes negative values (and -0) to +0, .satfinite takes an
// infinite result to the largest finite value of its sign.
inline std::uint16_t toHalf16(bool bf, const Value& v, const Instr& in)
{
    const Round16 mode = round16(in.round); // after .rni ... .rpi the value is an integer: nearest
    std::uint16_t r = 0;
    if (v.kind == Value::Flt) {
        double x = integralRounding(in.round) ? roundIntegral(v.f, in.round) : v.f;
        if (in.sat)
            x = saturate01(x);
        if (x != x) {
            // As the H200 does: from f32 (and from f16/bf16) the canonical NaN; from f64
            // the quiet NaN with the input's sign.
            if (in.type2 != PtxType::F64)
                return kCanonicalNaN16;
            const std::uint16_t sign = std::signbit(v.f) ? 0x8000u : 0u;
            return std::uint16_t(sign | (bf ? 0x7fc0u : 0x7e00u));
        }
        if (in.relu && !(x > 0))
            x = 0.0;
        r = bf ? bfloat16FromDouble(x, mode) : halfFromDouble(x, mode);
    } else {
        bool neg = v.kind == Value::Int && v.i < 0;
        std::uint64_t mag = v.kind == Value::Int ? (neg ? 0 - std::uint64_t(v.i) : std::uint64_t(v.i)) : v.u;
        if ((in.relu || in.sat) && neg) {
            neg = false;
            mag = 0;
        }
        if (in.sat && mag > 1)
            mag = 1;
        r = bf ? bfloat16FromInteger(neg, mag, mode) : halfFromInteger(neg, mag, mode);
    }
    const std::uint16_t inf = bf ? 0x7f80u : 0x7c00u;
    if (in.satfinite && (r & 0x7fffu) == inf)
        r = std::uint16_t((r & 0x8000u) | (inf - 1));
    return r;
}

inline std::uint64_t writeValue(PtxType t, const Value& v, const Instr& in)
{
    const RoundMode rnd = in.round;
    if (t == PtxType::F16 || t == PtxType::BF16)
        return toHalf16(t == PtxType::BF16, v, in);
    if (v.kind == Value::Flt && !isFloat(t)) {
        const double x = roundIntegral(v.f, rnd == RoundMode::Default ? RoundMode::Rzi : rnd);
        switch (t) {
        case PtxType::S8: return floatToInt<std::int8_t>(x);
        case PtxType::S16: return floatToInt<std::int16_t>(x);
        case PtxType::S32: return floatToInt<std::int32_t>(x);
        case PtxType::S64: return floatToInt<std::int64_t>(x);
        case PtxType::U8:
        case PtxType::B8: return floatToInt<std::uint8_t>(x);
        case PtxType::U16:
        case PtxType::B16: return floatToInt<std::uint16_t>(x);
        case PtxType::U32:
        case PtxType::B32: return floatToInt<std::uint32_t>(x);
        default: return floatToInt<std::uint64_t>(x);
        }
    }
    if (!isFloat(t)) {
        switch (t) {
        case PtxType::S8: return clampInt<std::int8_t>(v, in.sat);
        case PtxType::S16: return clampInt<std::int16_t>(v, in.sat);
        case PtxType::S32: return clampInt<std::int32_t>(v, in.sat);
        case PtxType::S64: return clampInt<std::int64_t>(v, in.sat);
        case PtxType::U8:
        case PtxType::B8: return clampInt<std::uint8_t>(v, in.sat);
        case PtxType::U16:
        case PtxType::B16: return clampInt<std::uint16_t>(v, in.sat);
        case PtxType::U32:
        case PtxType::B32: return clampInt<std::uint32_t>(v, in.sat);
        default: return clampInt<std::uint64_t>(v, in.sat);
        }
    }
    // Float destination.
    RoundingScope scope{rnd};
    float f32 = 0;
    double f64 = 0;
    if (v.kind == Value::Int) {
        f32 = float(v.i);
        f64 = double(v.i);
    } else if (v.kind == Value::Uint) {
        f32 = float(v.u);
        f64 = double(v.u);
    } else {
        const bool integral
            = rnd == RoundMode::Rni || rnd == RoundMode::Rzi || rnd == RoundMode::Rmi || rnd == RoundMode::Rpi;
        if (v.isF32) {
            f32 = integral ? float(roundIntegral(v.f32, rnd)) : v.f32;
            f64 = integral ? roundIntegral(v.f32, rnd) : v.f;
        } else {
            f64 = integral ? roundIntegral(v.f, rnd) : v.f;
            f32 = float(f64);
        }
    }
    if (in.sat) {
        f32 = saturate01(f32);
        f64 = saturate01(f64);
    }
    switch (t) {
    case PtxType::F32:
        if (in.type2 == PtxType::F16 && f32 != f32)
            return 0x7fffffffu; // an f16 NaN widens to the canonical NaN
        return put<float>(in.ftz ? flushSubnormal(f32) : f32);
    default: return put<double>(f64);
    }
}

struct Cvt {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        forLanes(m, [&](int l) { d[l] = writeValue(in.type, readValue(in.type2, a[l], in.ftz), in); });
    }
};

// cvt.frnd.{f16x2,bf16x2}.f32 d, a, b: a converted into the upper half, b into the lower.
struct CvtPack {
    static void run(Warp& w, const Instr& in, std::uint32_t m)
    {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
        const bool bf = in.type == PtxType::BF16x2;
        forLanes(m, [&](int l) {
            const std::uint16_t hi = toHalf16(bf, readValue(PtxType::F32, a[l], in.ftz), in);
            const std::uint16_t lo = toHalf16(bf, readValue(PtxType::F32, b[l], in.ftz), in);
            d[l] = std::uint64_t(hi) << 16 | lo;
        });
    }
};

} // namespace

void hCvt(Warp& w, const Instr& in, std::uint32_t m) { Cvt::run(w, in, m); }
void hCvtPack(Warp& w, const Instr& in, std::uint32_t m) { CvtPack::run(w, in, m); }

void hCvtTf32(Warp& w, const Instr& in, std::uint32_t m)
{
    const std::uint64_t* A = w.reg(in.a[0]);
    std::uint64_t* D = w.reg(in.d[0]);
    const RoundMode rnd = in.round;
    forLanes(m, [&](int l) {
        const auto x = std::uint32_t(A[l]);
        const std::uint32_t mag = x & 0x7fffffffu;
        if (mag > 0x7f800000u) { // NaN
            D[l] = 0x7fffffffu;
            return;
        }
        if (mag == 0x7f800000u) {
            D[l] = x;
            return;
        }
        // On the magnitude, so ties go away from zero; a carry into the exponent rounds up
        // to the next power of two, or to infinity.
        std::uint32_t add = 0;
        if (rnd == RoundMode::Rna)
            add = 0x1000u;
        else if (rnd == RoundMode::Rn || rnd == RoundMode::Default)
            add = 0xfffu + ((mag >> 13) & 1u);
        D[l] = (x & 0x80000000u) | ((mag + add) & ~0x1fffu);
    });
}

} // namespace kw::sim
