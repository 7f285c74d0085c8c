#include "sim/InstrDecoder.hpp"

#include "data/HalfFloat.hpp"

#include "sim/ExecHelpers.hpp"
#include "sim/Handlers.hpp"
#include "sim/Warp.hpp"

#include <climits>
#include <cmath>
#include <limits>
#include <type_traits>

namespace kw::sim {

namespace {

// ---------------------------------------------------------------- operations

template <class T> using U_t = std::make_unsigned_t<T>;

template <class T> struct OpAdd { static T f(T a, T b) { if constexpr (std::is_integral_v<T>) return T(U_t<T>(a) + U_t<T>(b)); else return a + b; } };
template <class T> struct OpSub { static T f(T a, T b) { if constexpr (std::is_integral_v<T>) return T(U_t<T>(a) - U_t<T>(b)); else return a - b; } };
template <class T> struct OpMul { static T f(T a, T b) { if constexpr (std::is_integral_v<T>) return T(U_t<T>(a) * U_t<T>(b)); else return a * b; } };
template <class T> struct OpMulHi {
    static T f(T a, T b) {
        if constexpr (sizeof(T) == 8) {
            using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
            return T((W(a) * W(b)) >> 64);
        } else {
            using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
            return T((W(a) * W(b)) >> (8 * sizeof(T)));
        }
    }
};
template <class T> struct OpAnd { static T f(T a, T b) { return a & b; } };
template <class T> struct OpOr { static T f(T a, T b) { return a | b; } };
template <class T> struct OpXor { static T f(T a, T b) { return a ^ b; } };
template <class T> struct OpMinI { static T f(T a, T b) { return a < b ? a : b; } };
template <class T> struct OpMaxI { static T f(T a, T b) { return a > b ? a : b; } };
// PTX min/max: a NaN operand yields the other one; -0 is below +0.
template <class T> struct OpMinF {
    static T f(T a, T b) {
        if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<T>::quiet_NaN() : b;
        if (std::isnan(b)) return a;
        if (a == b) return std::signbit(a) ? a : b;
        return a < b ? a : b;
    }
};
template <class T> struct OpMaxF {
    static T f(T a, T b) {
        if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<T>::quiet_NaN() : b;
        if (std::isnan(b)) return a;
        if (a == b) return std::signbit(a) ? b : a;
        return a > b ? a : b;
    }
};
template <class T> struct OpDivF { static T f(T a, T b) { return a / b; } };
template <class T> struct OpCopysign { static T f(T a, T b) { return std::copysign(b, a); } };
// Integer division as the GPU's sequence computes it: x/0 is all ones for unsigned,
// -1 or 1 for signed (by the dividend's sign); x%0 is x; INT_MIN/-1 wraps.
template <class T> struct OpDiv {
    static T f(T a, T b) {
        if (b == 0) {
            if constexpr (std::is_signed_v<T>) return a < 0 ? T(1) : T(-1);
            else return std::numeric_limits<T>::max();
        }
        if constexpr (std::is_signed_v<T>)
            if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
        return a / b;
    }
};
template <class T> struct OpRem {
    static T f(T a, T b) {
        if (b == 0) return a;
        if constexpr (std::is_signed_v<T>)
            if (a == std::numeric_limits<T>::min() && b == T(-1)) return 0;
        return a % b;
    }
};
// Shift amounts are unsigned and clamp at the register width.
template <class T> struct OpShl {
    static T f(T a, std::uint32_t n) { return n >= 8 * sizeof(T) ? T(0) : T(U_t<T>(a) << n); }
};
template <class T> struct OpShr {
    static T f(T a, std::uint32_t n) {
        if (n >= 8 * sizeof(T)) n = 8 * sizeof(T) - 1 + (std::is_signed_v<T> ? 0 : 1);
        if (n >= 8 * sizeof(T)) return T(0);
        return T(a >> n);
    }
};

template <class T> struct OpNeg { static T f(T a) { if constexpr (std::is_integral_v<T>) return T(U_t<T>(0) - U_t<T>(a)); else return -a; } };
template <class T> struct OpAbs { static T f(T a) { if constexpr (std::is_integral_v<T>) return a < 0 ? OpNeg<T>::f(a) : a; else return std::fabs(a); } };
template <class T> struct OpNot { static T f(T a) { return T(~a); } };
template <class T> struct OpCnot { static T f(T a) { return a == 0 ? T(1) : T(0); } };
template <class T> struct OpSqrt { static T f(T a) { return std::sqrt(a); } };
template <class T> struct OpRsqrt { static T f(T a) { return T(1) / std::sqrt(a); } };
template <class T> struct OpRcp { static T f(T a) { return T(1) / a; } };
template <class T> struct OpEx2 { static T f(T a) { return std::exp2(a); } };
template <class T> struct OpLg2 { static T f(T a) { return std::log2(a); } };
template <class T> struct OpSin { static T f(T a) { return std::sin(a); } };
template <class T> struct OpCos { static T f(T a) { return std::cos(a); } };
template <class T> struct OpTanh { static T f(T a) { return std::tanh(a); } };

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
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        forLanes(m, [&](int l) { d[l] = put<T>(Op::f(get<T>(a[l]), get<T>(b[l]))); });
    }
};

template <class T, class Op> struct Shift {
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        forLanes(m, [&](int l) { d[l] = put<T>(Op::f(get<T>(a[l]), std::uint32_t(b[l]))); });
    }
};

template <class T, class Op> struct FBin {
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        if (plainRounding(in)) {
            forLanes(m, [&](int l) { d[l] = put<T>(Op::f(get<T>(a[l]), get<T>(b[l]))); });
            return;
        }
        RoundingScope scope(in.rnd);
        forLanes(m, [&](int l) {
            d[l] = put<T>(ftzSatOut(in, Op::f(ftzIn(in, get<T>(a[l])), ftzIn(in, get<T>(b[l])))));
        });
    }
};

template <class T, class Op> struct Un {
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        forLanes(m, [&](int l) { d[l] = put<T>(Op::f(get<T>(a[l]))); });
    }
};

template <class T, class Op> struct FUn {
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        RoundingScope scope(in.rnd);
        forLanes(m, [&](int l) { d[l] = put<T>(ftzSatOut(in, Op::f(ftzIn(in, get<T>(a[l]))))); });
    }
};

template <class T> struct Fma {
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        const std::uint64_t* c = w.reg(in.a[2]);
        if (plainRounding(in)) {
            forLanes(m, [&](int l) { d[l] = put<T>(std::fma(get<T>(a[l]), get<T>(b[l]), get<T>(c[l]))); });
            return;
        }
        RoundingScope scope(in.rnd);
        forLanes(m, [&](int l) {
            const T x = ftzIn(in, get<T>(a[l])), y = ftzIn(in, get<T>(b[l])), z = ftzIn(in, get<T>(c[l]));
            d[l] = put<T>(ftzSatOut(in, T(std::fma(x, y, z))));
        });
    }
};

// mad.lo / mad.hi on integers (hi: the high half of a*b, plus c).
template <class T, bool Hi> struct MadInt {
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
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
    using W = std::conditional_t<std::is_signed_v<T>,
                                 std::conditional_t<sizeof(T) == 4, std::int64_t, std::int32_t>,
                                 std::conditional_t<sizeof(T) == 4, std::uint64_t, std::uint32_t>>;
    static void run(Warp& w, const Instr& in, std::uint32_t m) {
        std::uint64_t* d = w.reg(in.d[0]);
        const std::uint64_t* a = w.reg(in.a[0]);
        const std::uint64_t* b = w.reg(in.a[1]);
        const std::uint64_t* c = w.reg(in.a[2]);
        forLanes(m, [&](int l) {
            W p = W(U_t<W>(W(get<T>(a[l]))) * U_t<W>(W(get<T>(b[l]))));
            if (Mad) p = W(U_t<W>(p) + U_t<W>(get<W>(c[l])));
            d[l] = put<W>(p);
        });
    }
};

template <class T> using MadLo = MadInt<T, false>;
template <class T> using MadHi = MadInt<T, true>;

template <class T> struct Popc { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]); const std::uint64_t* a = w.reg(in.a[0]);
    forLanes(m, [&](int l) { d[l] = std::uint32_t(__builtin_popcountll(std::uint64_t(get<T>(a[l])))); });
} };
template <class T> struct Clz { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]); const std::uint64_t* a = w.reg(in.a[0]);
    forLanes(m, [&](int l) {
        const std::uint64_t v = get<T>(a[l]);
        d[l] = v == 0 ? 8 * sizeof(T) : std::uint32_t(__builtin_clzll(v) - (64 - 8 * sizeof(T)));
    });
} };
template <class T> struct Brev { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]); const std::uint64_t* a = w.reg(in.a[0]);
    forLanes(m, [&](int l) {
        T v = get<T>(a[l]), r = 0;
        for (unsigned i = 0; i < 8 * sizeof(T); ++i) r = T(r | (((v >> i) & 1) << (8 * sizeof(T) - 1 - i)));
        d[l] = put<T>(r);
    });
} };
// bfind: the position of the most significant non-sign bit, 0xffffffff if none.
template <class T> struct Bfind { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]); const std::uint64_t* a = w.reg(in.a[0]);
    const bool shiftAmt = in.mode != 0;
    forLanes(m, [&](int l) {
        T v = get<T>(a[l]);
        std::uint64_t u = std::uint64_t(U_t<T>(v));
        if (std::is_signed_v<T> && v < 0) u = std::uint64_t(U_t<T>(~v));
        std::uint32_t r = 0xffffffffu;
        if (u) {
            r = 63 - __builtin_clzll(u);
            if (shiftAmt) r = 8 * sizeof(T) - 1 - r;
        }
        d[l] = r;
    });
} };
template <class T> struct Bfe { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    constexpr unsigned bits = 8 * sizeof(T);
    forLanes(m, [&](int l) {
        const unsigned pos = unsigned(b[l] & 0xff), len = unsigned(c[l] & 0xff);
        const std::uint64_t v = std::uint64_t(U_t<T>(get<T>(a[l])));
        std::uint64_t r = 0;
        if (len && pos < bits) r = (v >> pos) & (len >= 64 ? ~0ull : ((1ull << len) - 1));
        bool sbit = false;
        if (std::is_signed_v<T> && len) sbit = (v >> std::min(pos + len - 1, bits - 1)) & 1;
        if (std::is_signed_v<T> && sbit && len < bits) r |= ~0ull << std::min(len, bits);
        d[l] = put<T>(T(r));
    });
} };
template <class T> struct Bfi { static void run(Warp& w, const Instr& in, std::uint32_t m) {
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
} };

struct Prmt { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    forLanes(m, [&](int l) {
        const std::uint64_t bytes = (std::uint64_t(std::uint32_t(b[l])) << 32) | std::uint32_t(a[l]);
        const std::uint32_t sel = std::uint32_t(c[l]);
        std::uint32_t r = 0;
        for (int i = 0; i < 4; ++i) {
            const std::uint32_t s = (sel >> (4 * i)) & 0xf;
            std::uint32_t byte = std::uint32_t(bytes >> (8 * (s & 7))) & 0xff;
            if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * i);
        }
        d[l] = r;
    });
} };

struct Lop3 { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const std::uint32_t lut = std::uint32_t(in.imm);
    forLanes(m, [&](int l) {
        const std::uint32_t x = std::uint32_t(a[l]), y = std::uint32_t(b[l]), z = std::uint32_t(c[l]);
        std::uint32_t r = 0;
        for (int i = 0; i < 8; ++i)
            if (lut & (1u << i)) r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
        d[l] = r;
    });
} };

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a.
struct Shf { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const bool left = in.mode & 1, clamp = in.mode & 2;
    forLanes(m, [&](int l) {
        std::uint32_t n = std::uint32_t(c[l]);
        n = clamp ? std::min(n, 32u) : (n & 31);
        const std::uint64_t v = (std::uint64_t(std::uint32_t(b[l])) << 32) | std::uint32_t(a[l]);
        d[l] = left ? std::uint32_t((v << n) >> 32) : std::uint32_t(v >> n);
    });
} };

enum class Cmp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : std::uint8_t { None, And, Or, Xor };

template <class T> inline bool compare(Cmp c, T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        const bool un = std::isnan(a) || std::isnan(b);
        switch (c) {
        case Cmp::Eq: return !un && a == b;
        case Cmp::Ne: return !un && a != b;
        case Cmp::Lt: return !un && a < b;
        case Cmp::Le: return !un && a <= b;
        case Cmp::Gt: return !un && a > b;
        case Cmp::Ge: return !un && a >= b;
        case Cmp::Equ: return un || a == b;
        case Cmp::Neu: return un || a != b;
        case Cmp::Ltu: return un || a < b;
        case Cmp::Leu: return un || a <= b;
        case Cmp::Gtu: return un || a > b;
        case Cmp::Geu: return un || a >= b;
        case Cmp::Num: return !un;
        case Cmp::Nan: return un;
        default: return false;
        }
    } else {
        using UT = U_t<T>;
        switch (c) {
        case Cmp::Eq: return a == b;
        case Cmp::Ne: return a != b;
        case Cmp::Lt: return a < b;
        case Cmp::Le: return a <= b;
        case Cmp::Gt: return a > b;
        case Cmp::Ge: return a >= b;
        case Cmp::Lo: return UT(a) < UT(b);
        case Cmp::Ls: return UT(a) <= UT(b);
        case Cmp::Hi: return UT(a) > UT(b);
        case Cmp::Hs: return UT(a) >= UT(b);
        default: return false;
        }
    }
}

inline bool combine(BoolOp op, bool x, bool c) {
    switch (op) {
    case BoolOp::And: return x && c;
    case BoolOp::Or: return x || c;
    case BoolOp::Xor: return x != c;
    default: return x;
    }
}

// setp.cmp[.bool].type p[|q], a, b[, {!}c]; in.mode = cmp, in.rnd = bool op.
template <class T> struct Setp { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* p = w.reg(in.d[0]);
    std::uint64_t* q = w.reg(in.d[1]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const Cmp cmp = static_cast<Cmp>(in.mode);
    const BoolOp bop = static_cast<BoolOp>(in.rnd);
    const bool negC = in.negMask & 4;
    forLanes(m, [&](int l) {
        const bool r = compare<T>(cmp, ftzIn(in, get<T>(a[l])), ftzIn(in, get<T>(b[l])));
        const bool cv = (c[l] != 0) != negC;
        p[l] = combine(bop, r, cv);
        q[l] = combine(bop, !r, cv);
    });
} };

// set.cmp.dtype.stype: all ones (integer) or 1.0f (f32) when true.
template <class T> struct SetVal { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
    const Cmp cmp = static_cast<Cmp>(in.mode);
    const bool toFloat = in.type == PtxType::F32;
    forLanes(m, [&](int l) {
        const bool r = compare<T>(cmp, get<T>(a[l]), get<T>(b[l]));
        d[l] = toFloat ? (r ? 0x3f800000u : 0u) : (r ? 0xffffffffu : 0u);
    });
} };

struct PredOp { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
    const bool na = in.negMask & 1, nb = in.negMask & 2;
    const auto op = in.mode;
    forLanes(m, [&](int l) {
        const bool x = (a[l] != 0) != na, y = (b[l] != 0) != nb;
        d[l] = op == 0 ? (x && y) : op == 1 ? (x || y) : op == 2 ? (x != y) : op == 3 ? !x : x;
    });
} };

struct Selp { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const bool neg = in.negMask & 4;
    forLanes(m, [&](int l) { d[l] = ((c[l] != 0) != neg) ? a[l] : b[l]; });
} };

struct Mov { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t* a = w.reg(in.a[0]);
    const bool neg = in.negMask & 1;
    if (neg) forLanes(m, [&](int l) { d[l] = a[l] == 0; });
    else forLanes(m, [&](int l) { d[l] = a[l]; });
} };

// mov.bN d, {a, b, ...}: pack; in.mode = element bits.
struct Pack { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const unsigned bits = in.mode;
    const std::uint64_t elemMask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    forLanes(m, [&](int l) {
        std::uint64_t v = 0;
        for (int k = 0; k < in.na; ++k) v |= (w.reg(in.a[k])[l] & elemMask) << (bits * k);
        d[l] = v;
    });
} };
struct Unpack { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    const std::uint64_t* a = w.reg(in.a[0]);
    const unsigned bits = in.mode;
    const std::uint64_t elemMask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    forLanes(m, [&](int l) {
        const std::uint64_t v = a[l];
        for (int k = 0; k < in.nd; ++k) w.reg(in.d[k])[l] = (v >> (bits * k)) & elemMask;
    });
} };

// cvta: in.imm is the window base to add (to generic) or subtract (to a state space).
struct Cvta { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t* a = w.reg(in.a[0]);
    const std::uint64_t base = std::uint64_t(in.imm);
    const bool toSpace = in.mode != 0;
    const bool narrow = sizeOf(in.type) == 4;
    forLanes(m, [&](int l) {
        std::uint64_t v = a[l];
        if (narrow) v = std::uint32_t(v);
        v = toSpace ? v - base : v + base;
        d[l] = narrow ? std::uint32_t(v) : v;
    });
} };

struct Testp { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t* a = w.reg(in.a[0]);
    const bool isF64 = in.type == PtxType::F64;
    forLanes(m, [&](int l) {
        const double x = isF64 ? get<double>(a[l]) : double(get<float>(a[l]));
        const int cls = isF64 ? std::fpclassify(get<double>(a[l])) : std::fpclassify(get<float>(a[l]));
        bool r = false;
        switch (in.mode) {
        case 0: r = std::isfinite(x); break;
        case 1: r = std::isinf(x); break;
        case 2: r = !std::isnan(x); break;
        case 3: r = std::isnan(x); break;
        case 4: r = cls == FP_NORMAL; break;
        case 5: r = cls == FP_SUBNORMAL; break;
        }
        d[l] = r;
    });
} };

// ---------------------------------------------------------------- cvt

struct Value {
    enum Kind { Int, Uint, Flt } kind;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double f = 0;
    float f32 = 0;
    bool isF32 = false;
};

inline Value readValue(PtxType t, std::uint64_t bits, bool ftz) {
    Value v{Value::Int};
    switch (t) {
    case PtxType::S8: v.i = get<std::int8_t>(bits); break;
    case PtxType::S16: v.i = get<std::int16_t>(bits); break;
    case PtxType::S32: v.i = get<std::int32_t>(bits); break;
    case PtxType::S64: v.i = get<std::int64_t>(bits); break;
    case PtxType::U8: case PtxType::B8: v.kind = Value::Uint; v.u = get<std::uint8_t>(bits); break;
    case PtxType::U16: case PtxType::B16: v.kind = Value::Uint; v.u = get<std::uint16_t>(bits); break;
    case PtxType::U32: case PtxType::B32: v.kind = Value::Uint; v.u = get<std::uint32_t>(bits); break;
    case PtxType::U64: case PtxType::B64: v.kind = Value::Uint; v.u = bits; break;
    case PtxType::F16: v.kind = Value::Flt; v.f32 = halfToFloat(std::uint16_t(bits)); v.f = v.f32; v.isF32 = true; break;
    case PtxType::BF16: v.kind = Value::Flt; v.f32 = bfloat16ToFloat(std::uint16_t(bits)); v.f = v.f32; v.isF32 = true; break;
    case PtxType::F32: v.kind = Value::Flt; v.f32 = get<float>(bits); if (ftz) v.f32 = flushSubnormal(v.f32); v.f = v.f32; v.isF32 = true; break;
    case PtxType::F64: v.kind = Value::Flt; v.f = get<double>(bits); break;
    default: break;
    }
    return v;
}

inline double roundIntegral(double x, RoundMode r) {
    switch (r) {
    case RoundMode::Rni: return std::nearbyint(x); // host default: nearest even
    case RoundMode::Rzi: return std::trunc(x);
    case RoundMode::Rmi: return std::floor(x);
    case RoundMode::Rpi: return std::ceil(x);
    default: return x;
    }
}

template <class I> inline std::uint64_t floatToInt(double x) {
    if (std::isnan(x)) return 0;
    if (x <= double(std::numeric_limits<I>::min())) return put<I>(std::numeric_limits<I>::min());
    if (x >= double(std::numeric_limits<I>::max())) return put<I>(std::numeric_limits<I>::max());
    return put<I>(I(x));
}

template <class I> inline std::uint64_t clampInt(const Value& v, bool sat) {
    if (!sat) {
        const std::uint64_t raw = v.kind == Value::Int ? std::uint64_t(v.i) : v.u;
        return put<I>(I(raw));
    }
    if (v.kind == Value::Int) {
        if (v.i < 0 && !std::is_signed_v<I>) return 0;
        if (std::is_signed_v<I> && v.i < std::int64_t(std::numeric_limits<I>::min())) return put<I>(std::numeric_limits<I>::min());
        if (v.i > 0 && std::uint64_t(v.i) > std::uint64_t(std::numeric_limits<I>::max())) return put<I>(std::numeric_limits<I>::max());
        return put<I>(I(v.i));
    }
    if (v.u > std::uint64_t(std::numeric_limits<I>::max())) return put<I>(std::numeric_limits<I>::max());
    return put<I>(I(v.u));
}

inline std::uint64_t writeValue(PtxType t, const Value& v, const Instr& in) {
    const auto rnd = static_cast<RoundMode>(in.rnd);
    if (v.kind == Value::Flt && !isFloat(t)) {
        const double x = roundIntegral(v.f, rnd == RoundMode::Default ? RoundMode::Rzi : rnd);
        switch (t) {
        case PtxType::S8: return floatToInt<std::int8_t>(x);
        case PtxType::S16: return floatToInt<std::int16_t>(x);
        case PtxType::S32: return floatToInt<std::int32_t>(x);
        case PtxType::S64: return floatToInt<std::int64_t>(x);
        case PtxType::U8: case PtxType::B8: return floatToInt<std::uint8_t>(x);
        case PtxType::U16: case PtxType::B16: return floatToInt<std::uint16_t>(x);
        case PtxType::U32: case PtxType::B32: return floatToInt<std::uint32_t>(x);
        default: return floatToInt<std::uint64_t>(x);
        }
    }
    if (!isFloat(t)) {
        switch (t) {
        case PtxType::S8: return clampInt<std::int8_t>(v, in.sat);
        case PtxType::S16: return clampInt<std::int16_t>(v, in.sat);
        case PtxType::S32: return clampInt<std::int32_t>(v, in.sat);
        case PtxType::S64: return clampInt<std::int64_t>(v, in.sat);
        case PtxType::U8: case PtxType::B8: return clampInt<std::uint8_t>(v, in.sat);
        case PtxType::U16: case PtxType::B16: return clampInt<std::uint16_t>(v, in.sat);
        case PtxType::U32: case PtxType::B32: return clampInt<std::uint32_t>(v, in.sat);
        default: return clampInt<std::uint64_t>(v, in.sat);
        }
    }
    // Float destination.
    RoundingScope scope{std::uint8_t(rnd)};
    float f32 = 0;
    double f64 = 0;
    if (v.kind == Value::Int) { f32 = float(v.i); f64 = double(v.i); }
    else if (v.kind == Value::Uint) { f32 = float(v.u); f64 = double(v.u); }
    else {
        const bool integral = rnd == RoundMode::Rni || rnd == RoundMode::Rzi || rnd == RoundMode::Rmi || rnd == RoundMode::Rpi;
        if (v.isF32) { f32 = integral ? float(roundIntegral(v.f32, rnd)) : v.f32; f64 = integral ? roundIntegral(v.f32, rnd) : v.f; }
        else { f64 = integral ? roundIntegral(v.f, rnd) : v.f; f32 = float(f64); }
    }
    if (in.sat) { f32 = saturate01(f32); f64 = saturate01(f64); }
    switch (t) {
    case PtxType::F16: return halfFromFloat(f32);
    case PtxType::BF16: return bfloat16FromFloat(f32);
    case PtxType::F32: return put<float>(in.ftz ? flushSubnormal(f32) : f32);
    default: return put<double>(f64);
    }
}

struct Cvt { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t* a = w.reg(in.a[0]);
    forLanes(m, [&](int l) { d[l] = writeValue(in.type, readValue(in.type2, a[l], in.ftz), in); });
} };


// add.cc/addc/sub.cc/subc/mad{c}.{lo,hi}.cc: in.mode = 0 add, 1 sub, 2 mad.lo, 3 mad.hi;
// in.rnd bit 0 = use the carry in, bit 1 = write the carry out.
template <class U> struct CarryArith { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    using W = std::conditional_t<sizeof(U) == 4, std::uint64_t, unsigned __int128>;
    constexpr unsigned bits = 8 * sizeof(U);
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    std::uint64_t* cf = w.reg(RegCarry);
    const bool cin = in.rnd & 1, cout = in.rnd & 2;
    forLanes(m, [&](int l) {
        const U x = get<U>(a[l]), y = get<U>(b[l]);
        const U carry = cin ? U(cf[l] & 1) : U(0);
        W r = 0;
        switch (in.mode) {
        case 0: r = W(x) + W(y) + carry; break;
        case 1: r = W(x) - W(y) - carry; break;
        case 2: r = W(U(W(x) * W(y))) + W(get<U>(c[l])) + carry; break;
        default: r = W(U((W(x) * W(y)) >> bits)) + W(get<U>(c[l])) + carry; break;
        }
        d[l] = put<U>(U(r));
        if (cout) cf[l] = std::uint64_t((r >> bits) & 1);
    });
} };

template <class T> struct Sad { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    forLanes(m, [&](int l) {
        const T x = get<T>(a[l]), y = get<T>(b[l]);
        const U_t<T> diff = x > y ? U_t<T>(U_t<T>(x) - U_t<T>(y)) : U_t<T>(U_t<T>(y) - U_t<T>(x));
        d[l] = put<T>(T(U_t<T>(get<T>(c[l])) + diff));
    });
} };

// dp4a.atype.btype d, a, b, c: c plus the dot product of the four bytes of a and b.
struct Dp4a { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const bool sa = in.mode & 1, sb = in.mode & 2;
    forLanes(m, [&](int l) {
        std::int64_t acc = get<std::int32_t>(c[l]);
        for (int k = 0; k < 4; ++k) {
            const std::uint32_t ua = (std::uint32_t(a[l]) >> (8 * k)) & 0xff, ub = (std::uint32_t(b[l]) >> (8 * k)) & 0xff;
            const std::int64_t x = sa ? std::int8_t(ua) : std::int64_t(ua), y = sb ? std::int8_t(ub) : std::int64_t(ub);
            acc += x * y;
        }
        d[l] = std::uint32_t(acc);
    });
} };

// Half precision: computed in float and rounded once (exact for + - * / of halves).
template <template <class> class Op> struct HBin { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
    const int lanes = in.type == PtxType::F16x2 ? 2 : 1;
    forLanes(m, [&](int l) {
        std::uint64_t r = 0;
        for (int h = 0; h < lanes; ++h) {
            const float x = halfToFloat(std::uint16_t(a[l] >> (16 * h))), y = halfToFloat(std::uint16_t(b[l] >> (16 * h)));
            float v = Op<float>::f(x, y);
            if (in.sat) v = saturate01(v);
            r |= std::uint64_t(halfFromFloat(v)) << (16 * h);
        }
        d[l] = r;
    });
} };
template <template <class> class Op> struct HUn { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t* a = w.reg(in.a[0]);
    const int lanes = in.type == PtxType::F16x2 ? 2 : 1;
    forLanes(m, [&](int l) {
        std::uint64_t r = 0;
        for (int h = 0; h < lanes; ++h)
            r |= std::uint64_t(halfFromFloat(Op<float>::f(halfToFloat(std::uint16_t(a[l] >> (16 * h)))))) << (16 * h);
        d[l] = r;
    });
} };
struct HFma { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const int lanes = in.type == PtxType::F16x2 ? 2 : 1;
    forLanes(m, [&](int l) {
        std::uint64_t r = 0;
        for (int h = 0; h < lanes; ++h) {
            const double x = halfToFloat(std::uint16_t(a[l] >> (16 * h))), y = halfToFloat(std::uint16_t(b[l] >> (16 * h))),
                         z = halfToFloat(std::uint16_t(c[l] >> (16 * h)));
            float v = float(x * y + z); // exact product in double, one rounding to float, then to half
            if (in.sat) v = saturate01(v);
            r |= std::uint64_t(halfFromFloat(v)) << (16 * h);
        }
        d[l] = r;
    });
} };
struct HSetp { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* p = w.reg(in.d[0]);
    std::uint64_t* q = w.reg(in.d[1]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const Cmp cmp = static_cast<Cmp>(in.mode);
    const BoolOp bop = static_cast<BoolOp>(in.rnd);
    const bool negC = in.negMask & 4;
    forLanes(m, [&](int l) {
        const bool r = compare<float>(cmp, halfToFloat(std::uint16_t(a[l])), halfToFloat(std::uint16_t(b[l])));
        const bool cv = (c[l] != 0) != negC;
        p[l] = combine(bop, r, cv);
        q[l] = combine(bop, !r, cv);
    });
} };
// set.cmp.dtype.f16: 1.0 in the destination type (f16: 0x3c00, f32: 1.0f) or all ones.
struct HSet { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
    const Cmp cmp = static_cast<Cmp>(in.mode);
    const std::uint64_t one = in.type == PtxType::F16 ? 0x3c00u : in.type == PtxType::F32 ? 0x3f800000u : 0xffffffffu;
    forLanes(m, [&](int l) {
        d[l] = compare<float>(cmp, halfToFloat(std::uint16_t(a[l])), halfToFloat(std::uint16_t(b[l]))) ? one : 0;
    });
} };

// ---------------------------------------------------------------- decoding

struct Unsupported { std::string why; };

template <template <class> class Op, template <class, class> class H> Handler pickInt(PtxType t) {
    switch (t) {
    case PtxType::S8: return &H<std::int8_t, Op<std::int8_t>>::run;
    case PtxType::S16: return &H<std::int16_t, Op<std::int16_t>>::run;
    case PtxType::S32: return &H<std::int32_t, Op<std::int32_t>>::run;
    case PtxType::S64: return &H<std::int64_t, Op<std::int64_t>>::run;
    case PtxType::U8: case PtxType::B8: return &H<std::uint8_t, Op<std::uint8_t>>::run;
    case PtxType::U16: case PtxType::B16: return &H<std::uint16_t, Op<std::uint16_t>>::run;
    case PtxType::U32: case PtxType::B32: return &H<std::uint32_t, Op<std::uint32_t>>::run;
    case PtxType::U64: case PtxType::B64: return &H<std::uint64_t, Op<std::uint64_t>>::run;
    default: return nullptr;
    }
}
template <template <class> class Op, template <class, class> class H> Handler pickFloat(PtxType t) {
    if (t == PtxType::F32) return &H<float, Op<float>>::run;
    if (t == PtxType::F64) return &H<double, Op<double>>::run;
    return nullptr;
}
template <template <class> class H> Handler pickIntT(PtxType t) {
    switch (t) {
    case PtxType::S8: return &H<std::int8_t>::run;
    case PtxType::S16: return &H<std::int16_t>::run;
    case PtxType::S32: return &H<std::int32_t>::run;
    case PtxType::S64: return &H<std::int64_t>::run;
    case PtxType::U8: case PtxType::B8: return &H<std::uint8_t>::run;
    case PtxType::U16: case PtxType::B16: return &H<std::uint16_t>::run;
    case PtxType::U32: case PtxType::B32: return &H<std::uint32_t>::run;
    case PtxType::U64: case PtxType::B64: return &H<std::uint64_t>::run;
    default: return nullptr;
    }
}
template <template <class> class H> Handler pickAnyT(PtxType t) {
    if (t == PtxType::F32) return &H<float>::run;
    if (t == PtxType::F64) return &H<double>::run;
    return pickIntT<H>(t);
}

class Decoder {
public:
    Decoder(const std::string& opcode, const std::vector<PtxOperand>& ops, Instr& in, const DecodeEnv& env)
        : ops_(ops), in_(in), env_(env) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t dot = opcode.find('.', start);
            parts_.push_back(opcode.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
            if (dot == std::string::npos) break;
            start = dot + 1;
        }
        base_ = parts_[0];
        for (std::size_t i = 1; i < parts_.size(); ++i) {
            const PtxType t = parsePtxType(parts_[i]);
            if (t != PtxType::None) types_.push_back(t);
        }
    }

    void run();

private:
    const std::vector<PtxOperand>& ops_;
    Instr& in_;
    const DecodeEnv& env_;
    std::vector<std::string> parts_;
    std::string base_;
    std::vector<PtxType> types_;

    [[noreturn]] void unsupported(const std::string& why) const { throw Unsupported{why}; }
    bool has(const char* mod) const {
        for (std::size_t i = 1; i < parts_.size(); ++i)
            if (parts_[i] == mod) return true;
        return false;
    }
    PtxType type(std::size_t i = 0) const {
        if (i >= types_.size()) unsupported("instruction `" + joined() + "` without the expected type");
        return types_[i];
    }
    std::string joined() const {
        std::string s = base_;
        for (std::size_t i = 1; i < parts_.size(); ++i) s += "." + parts_[i];
        return s;
    }
    void need(std::size_t n) const {
        if (ops_.size() < n) unsupported("`" + joined() + "` with too few operands");
    }
    std::uint32_t dst(std::size_t i) const {
        need(i + 1);
        if (ops_[i].kind != PtxOperand::Kind::Reg) unsupported("`" + joined() + "` with a non-register destination");
        return ops_[i].reg;
    }
    std::uint32_t src(std::size_t i, PtxType t) {
        need(i + 1);
        const PtxOperand& o = ops_[i];
        switch (o.kind) {
        case PtxOperand::Kind::Reg:
            if (o.neg) in_.negMask |= std::uint8_t(1u << i);
            return o.reg;
        case PtxOperand::Kind::Imm: return env_.constReg(immediateBits(o.text, t));
        case PtxOperand::Kind::Sym:
            if (o.symKnown) return env_.constReg(o.symAddr);
            unsupported("operand `" + o.text + "` (only registers, immediates and variable addresses are supported)");
        default: unsupported("`" + joined() + "` with an unsupported operand form");
        }
    }
    // Negation flags are kept per source slot (bit k for in.a[k]).
    std::uint32_t srcAt(std::size_t opIndex, std::size_t slot, PtxType t) {
        const std::uint8_t before = in_.negMask;
        const std::uint32_t r = src(opIndex, t);
        if (in_.negMask != before) in_.negMask = std::uint8_t(before | (1u << slot));
        return r;
    }
    void setRound() {
        static const std::pair<const char*, RoundMode> modes[] = {
            {"rn", RoundMode::Rn}, {"rz", RoundMode::Rz}, {"rm", RoundMode::Rm}, {"rp", RoundMode::Rp},
            {"rni", RoundMode::Rni}, {"rzi", RoundMode::Rzi}, {"rmi", RoundMode::Rmi}, {"rpi", RoundMode::Rpi}};
        for (const auto& [name, mode] : modes)
            if (has(name)) in_.rnd = std::uint8_t(mode);
        in_.ftz = has("ftz");
        in_.sat = has("sat");
    }
    Space space() const {
        if (has("global")) return Space::Global;
        if (has("shared")) return Space::Shared;
        if (has("local")) return Space::Local;
        if (has("const")) return Space::Const;
        if (has("param")) return Space::Param;
        return Space::Generic;
    }
    void binary(Handler h) {
        if (!h) unsupported("`" + joined() + "` for this type");
        const PtxType t = type();
        in_.d[0] = dst(0);
        in_.a[0] = srcAt(1, 0, t);
        in_.a[1] = srcAt(2, 1, t);
        in_.fn = h;
    }
    void shift(Handler h) {
        if (!h) unsupported("`" + joined() + "` for this type");
        in_.d[0] = dst(0);
        in_.a[0] = src(1, type());
        in_.a[1] = src(2, PtxType::U32);
        in_.fn = h;
    }
    void unary(Handler h) {
        if (!h) unsupported("`" + joined() + "` for this type");
        in_.d[0] = dst(0);
        in_.a[0] = srcAt(1, 0, type());
        in_.fn = h;
    }
    void ternary(Handler h, PtxType t3) {
        if (!h) unsupported("`" + joined() + "` for this type");
        const PtxType t = type();
        in_.d[0] = dst(0);
        in_.a[0] = src(1, t);
        in_.a[1] = src(2, t);
        in_.a[2] = src(3, t3);
        in_.fn = h;
    }
    void memory();
    void atomic();
    void decodeMov();
    void decodeCvt();
    void decodeSetp();
    void decodeWarp();
};

void Decoder::run() {
    const std::string& b = base_;
    in_.type = types_.empty() ? PtxType::None : types_.back();
    setRound();
    const PtxType t = types_.empty() ? PtxType::None : types_[0];
    const bool fl = isFloat(t);

    // A loop around one of these may wait for another warp: the scheduler lets others run (BlockRunner).
    in_.polls = b == "nanosleep" || (b == "ld" && (has("volatile") || has("acquire") || has("relaxed"))) ||
                ((b == "atom") && (has("cas") || has("exch") || has("acquire") || has("acq_rel")));
    if (b == "ld" || b == "ldu" || b == "st") return memory();
    if (b == "atom" || b == "red") return atomic();
    if (b == "mov") return decodeMov();
    if (b == "cvt") return decodeCvt();
    if (b == "setp" || b == "set") return decodeSetp();
    if (b == "shfl" || b == "vote" || b == "activemask" || b == "redux" || b == "match") return decodeWarp();
    if (b == "bra" || b == "brx") {
        if (b == "brx") unsupported("indirect branch brx.idx");
        need(1);
        const int target = env_.label(ops_[0].text);
        if (target < 0) unsupported("branch to unknown label " + ops_[0].text);
        in_.ctrl = Ctrl::Bra;
        in_.target = std::uint32_t(target);
        return;
    }
    if (b == "ret" || b == "exit") { in_.ctrl = Ctrl::Exit; return; }
    if (b == "trap") { in_.ctrl = Ctrl::Trap; return; }
    if (b == "bar" || b == "barrier") {
        if (has("warp")) { in_.warpSync = true; return; } // bar.warp.sync: a reconvergence point
        if (has("arrive")) unsupported("`" + joined() + "` (only bar.sync, barrier.sync and bar.red are supported)");
        if (has("red")) {
            // bar.red.{popc.u32,and.pred,or.pred} d, id, {!}p: __syncthreads_count/_and/_or.
            in_.mode = std::uint8_t(has("popc") ? 1 : has("and") ? 2 : has("or") ? 3 : 0);
            if (!in_.mode || ops_.size() != 3) unsupported("`" + joined() + "` with a thread count or unknown operation");
            in_.d[0] = dst(0);
            in_.a[0] = srcAt(2, 0, PtxType::Pred);
            in_.ctrl = Ctrl::Bar;
            return;
        }
        if (ops_.size() > 1) unsupported("barrier with a thread count (named barriers)");
        in_.ctrl = Ctrl::Bar;
        return;
    }
    if (b == "membar" || b == "fence" || b == "nanosleep" || b == "prefetch" || b == "prefetchu" ||
        b == "pmevent" || b == "brkpt" || b == "discard" || b == "applypriority")
        return; // ordering and hints: no effect on a sequentially consistent simulator

    const bool carry = b == "addc" || b == "subc" || b == "madc" || has("cc");
    if (carry && (b == "add" || b == "sub" || b == "addc" || b == "subc" || b == "mad" || b == "madc")) {
        in_.mode = std::uint8_t(b[0] == 'a' ? 0 : b[0] == 's' ? 1 : has("hi") ? 3 : 2);
        in_.rnd = std::uint8_t((b.back() == 'c' ? 1 : 0) | (has("cc") ? 2 : 0));
        const int size = sizeOf(t);
        Handler h = size == 4 ? &CarryArith<std::uint32_t>::run : size == 8 ? &CarryArith<std::uint64_t>::run : nullptr;
        return in_.mode >= 2 ? ternary(h, t) : binary(h);
    }
    if (t == PtxType::F16 || t == PtxType::F16x2) {
        if (b == "add") return binary(&HBin<OpAdd>::run);
        if (b == "sub") return binary(&HBin<OpSub>::run);
        if (b == "mul") return binary(&HBin<OpMul>::run);
        if (b == "min") return binary(&HBin<OpMinF>::run);
        if (b == "max") return binary(&HBin<OpMaxF>::run);
        if (b == "neg") return unary(&HUn<OpNeg>::run);
        if (b == "abs") return unary(&HUn<OpAbs>::run);
        if (b == "fma" || b == "mad") return ternary(&HFma::run, t);
    }
    if (b == "sad") return ternary(pickIntT<Sad>(t), t);
    if (b == "dp4a") {
        if (types_.size() < 2) unsupported("dp4a without two types");
        in_.mode = std::uint8_t((isSigned(types_[0]) ? 1 : 0) | (isSigned(types_[1]) ? 2 : 0));
        in_.type = PtxType::S32;
        return ternary(&Dp4a::run, PtxType::B32);
    }
    if (b == "add") return binary(fl ? pickFloat<OpAdd, FBin>(t) : pickInt<OpAdd, Bin>(t));
    if (b == "sub") return binary(fl ? pickFloat<OpSub, FBin>(t) : pickInt<OpSub, Bin>(t));
    if (b == "mul") {
        if (fl) return binary(pickFloat<OpMul, FBin>(t));
        if (has("wide")) {
            in_.type = t == PtxType::S32 ? PtxType::S64 : t == PtxType::U32 ? PtxType::U64 : t;
            if (t == PtxType::S32) return binary(&Wide<std::int32_t, false>::run);
            if (t == PtxType::U32) return binary(&Wide<std::uint32_t, false>::run);
            if (t == PtxType::S16) return binary(&Wide<std::int16_t, false>::run);
            if (t == PtxType::U16) return binary(&Wide<std::uint16_t, false>::run);
            unsupported("`" + joined() + "`");
        }
        if (has("hi")) return binary(pickInt<OpMulHi, Bin>(t));
        return binary(pickInt<OpMul, Bin>(t));
    }
    if (b == "mad" || b == "fma") {
        if (fl) {
            if (t == PtxType::F32) return ternary(&Fma<float>::run, t);
            if (t == PtxType::F64) return ternary(&Fma<double>::run, t);
            unsupported("`" + joined() + "` for this type");
        }
        if (has("wide")) {
            const PtxType wt = t == PtxType::S32 ? PtxType::S64 : t == PtxType::U32 ? PtxType::U64 : t == PtxType::S16 ? PtxType::S32 : PtxType::U32;
            Handler h = t == PtxType::S32 ? &Wide<std::int32_t, true>::run : t == PtxType::U32 ? &Wide<std::uint32_t, true>::run
                       : t == PtxType::S16 ? &Wide<std::int16_t, true>::run : t == PtxType::U16 ? &Wide<std::uint16_t, true>::run : nullptr;
            return ternary(h, wt);
        }
        return ternary(has("hi") ? pickIntT<MadHi>(t) : pickIntT<MadLo>(t), t);
    }
    if (b == "div") {
        if (fl) return binary(pickFloat<OpDivF, FBin>(t));
        return binary(pickInt<OpDiv, Bin>(t));
    }
    if (b == "rem") return binary(pickInt<OpRem, Bin>(t));
    if (b == "min") return binary(fl ? pickFloat<OpMinF, FBin>(t) : pickInt<OpMinI, Bin>(t));
    if (b == "max") return binary(fl ? pickFloat<OpMaxF, FBin>(t) : pickInt<OpMaxI, Bin>(t));
    if (t == PtxType::Pred && (b == "and" || b == "or" || b == "xor" || b == "not")) {
        in_.d[0] = dst(0);
        in_.a[0] = srcAt(1, 0, t);
        if (b != "not") in_.a[1] = srcAt(2, 1, t);
        in_.mode = b == "and" ? 0 : b == "or" ? 1 : b == "xor" ? 2 : 3;
        in_.fn = &PredOp::run;
        return;
    }
    if (b == "and") return binary(pickInt<OpAnd, Bin>(t));
    if (b == "or") return binary(pickInt<OpOr, Bin>(t));
    if (b == "xor") return binary(pickInt<OpXor, Bin>(t));
    if (b == "not") return unary(pickInt<OpNot, Un>(t));
    if (b == "cnot") return unary(pickInt<OpCnot, Un>(t));
    if (b == "neg") return unary(fl ? pickFloat<OpNeg, FUn>(t) : pickInt<OpNeg, Un>(t));
    if (b == "abs") return unary(fl ? pickFloat<OpAbs, FUn>(t) : pickInt<OpAbs, Un>(t));
    if (b == "shl") return shift(pickInt<OpShl, Shift>(t));
    if (b == "shr") return shift(pickInt<OpShr, Shift>(t));
    if (b == "copysign") return binary(pickFloat<OpCopysign, FBin>(t));
    if (b == "sqrt") return unary(pickFloat<OpSqrt, FUn>(t));
    if (b == "rsqrt") return unary(pickFloat<OpRsqrt, FUn>(t));
    if (b == "rcp") return unary(pickFloat<OpRcp, FUn>(t));
    if (b == "ex2") return unary(pickFloat<OpEx2, FUn>(t));
    if (b == "lg2") return unary(pickFloat<OpLg2, FUn>(t));
    if (b == "sin") return unary(pickFloat<OpSin, FUn>(t));
    if (b == "cos") return unary(pickFloat<OpCos, FUn>(t));
    if (b == "tanh") return unary(pickFloat<OpTanh, FUn>(t));
    if (b == "popc") { in_.type = PtxType::U32; return unary(pickIntT<Popc>(t)); }
    if (b == "clz") { in_.type = PtxType::U32; return unary(pickIntT<Clz>(t)); }
    if (b == "brev") return unary(pickIntT<Brev>(t));
    if (b == "bfind") { in_.mode = has("shiftamt"); in_.type = PtxType::U32; return unary(pickIntT<Bfind>(t)); }
    if (b == "bfe") {
        Handler h = pickIntT<Bfe>(t);
        in_.d[0] = dst(0); in_.a[0] = src(1, t); in_.a[1] = src(2, PtxType::U32); in_.a[2] = src(3, PtxType::U32);
        in_.fn = h;
        return;
    }
    if (b == "bfi") {
        in_.d[0] = dst(0); in_.a[0] = src(1, t); in_.a[1] = src(2, t);
        in_.a[2] = src(3, PtxType::U32); in_.a[3] = src(4, PtxType::U32);
        in_.fn = pickIntT<Bfi>(t);
        return;
    }
    if (b == "prmt") {
        if (parts_.size() > 2) unsupported("prmt with a mode");
        return ternary(&Prmt::run, PtxType::B32);
    }
    if (b == "lop3") {
        need(5);
        if (ops_[4].kind != PtxOperand::Kind::Imm) unsupported("lop3 with a non-immediate table");
        in_.imm = std::int64_t(immediateBits(ops_[4].text, PtxType::U32));
        return ternary(&Lop3::run, PtxType::B32);
    }
    if (b == "shf") {
        in_.mode = std::uint8_t((has("l") ? 1 : 0) | (has("clamp") ? 2 : 0));
        return ternary(&Shf::run, PtxType::U32);
    }
    if (b == "selp") {
        in_.d[0] = dst(0); in_.a[0] = src(1, t); in_.a[1] = src(2, t); in_.a[2] = srcAt(3, 2, PtxType::Pred);
        in_.fn = &Selp::run;
        return;
    }
    if (b == "testp") {
        static const char* classes[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
        for (std::uint8_t i = 0; i < 6; ++i)
            if (has(classes[i])) in_.mode = i;
        in_.d[0] = dst(0);
        in_.a[0] = src(1, t);
        in_.fn = &Testp::run;
        return;
    }
    if (b == "cvta") {
        const bool to = has("to");
        const Space sp = space();
        in_.mode = to;
        in_.imm = std::int64_t(sp == Space::Shared ? kSharedWindow : sp == Space::Local ? kLocalWindow : 0);
        in_.d[0] = dst(0);
        in_.a[0] = src(1, t);
        in_.fn = &Cvta::run;
        return;
    }
    if (b == "isspacep") unsupported("isspacep");
    unsupported("instruction `" + joined() + "`");
}

void Decoder::memory() {
    in_.space = space();
    const bool store = base_ == "st";
    for (std::size_t i = 1; i < parts_.size(); ++i) {
        if (parts_[i] == "v2") in_.vec = 2;
        else if (parts_[i] == "v4") in_.vec = 4;
        else if (parts_[i] == "v8") unsupported("8-element vector access");
    }
    const PtxType t = type();
    in_.type = t;
    in_.mode = std::uint8_t(sizeOf(t));
    need(2);
    const PtxOperand& mem = ops_[store ? 0 : 1];
    const PtxOperand& val = ops_[store ? 1 : 0];
    if (mem.kind != PtxOperand::Kind::Mem) unsupported("`" + joined() + "` without an address operand");
    std::vector<std::uint32_t> regs;
    if (val.kind == PtxOperand::Kind::Vec) regs = val.regs;
    else if (store) regs.push_back(src(1, t));
    else regs.push_back(dst(0));
    if (regs.size() != in_.vec) unsupported("vector width does not match the operand list");
    in_.addr = mem.reg;
    in_.imm = mem.offset;
    if (mem.memSpace != Space::Generic && in_.space == Space::Generic) in_.space = mem.memSpace;
    // Call-sequence and device-function parameters live in the thread's local frame.
    if (in_.space == Space::Param && mem.memSpace == Space::Local) in_.space = Space::Local;
    for (std::size_t k = 0; k < regs.size(); ++k) (store ? in_.a[k] : in_.d[k]) = regs[k];
    in_.na = in_.nd = std::uint8_t(regs.size());
    if (in_.space == Space::Param) {
        if (store) unsupported("st.param outside a call sequence");
        if (mem.reg != RegZero) unsupported("ld.param through a register address");
        in_.fn = &hLoadParam;
        return;
    }
    in_.fn = store ? &hStore : &hLoad;
}

void Decoder::atomic() {
    in_.space = space();
    in_.atomic = true;
    const bool red = base_ == "red";
    static const std::pair<const char*, AtomOp> ops[] = {
        {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
        {"dec", AtomOp::Dec}, {"and", AtomOp::And}, {"or", AtomOp::Or}, {"xor", AtomOp::Xor},
        {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}};
    bool found = false;
    for (const auto& [name, op] : ops)
        if (has(name)) { in_.mode = std::uint8_t(op); found = true; }
    if (!found) unsupported("`" + joined() + "`");
    if (has("v2") || has("v4") || has("v8")) unsupported("vector atomics");
    const PtxType t = type();
    in_.type = t;
    const int size = sizeOf(t);
    if (size != 2 && size != 4 && size != 8) unsupported("`" + joined() + "` on " + std::to_string(size * 8) + "-bit data");
    if (size == 2 && in_.mode != std::uint8_t(AtomOp::Add) && in_.mode != std::uint8_t(AtomOp::Cas) &&
        in_.mode != std::uint8_t(AtomOp::Exch))
        unsupported("`" + joined() + "` on 16-bit data");
    std::size_t i = 0;
    if (!red) in_.d[0] = dst(i++);
    need(i + 2);
    const PtxOperand& mem = ops_[i++];
    if (mem.kind != PtxOperand::Kind::Mem) unsupported("atomic without an address operand");
    in_.addr = mem.reg;
    in_.imm = mem.offset;
    if (mem.memSpace != Space::Generic && in_.space == Space::Generic) in_.space = mem.memSpace;
    in_.a[0] = src(i++, t);
    if (static_cast<AtomOp>(in_.mode) == AtomOp::Cas) in_.a[1] = src(i, t);
    in_.fn = size == 2 ? &hAtom16 : size == 4 ? &hAtom32 : &hAtom64;
}

void Decoder::decodeMov() {
    need(2);
    const PtxType t = type();
    const PtxOperand& d = ops_[0];
    const PtxOperand& s = ops_[1];
    if (s.kind == PtxOperand::Kind::Sym && (s.text == "%clock" || s.text == "%clock64" || s.text == "%globaltimer" ||
                                            s.text == "%globaltimer_lo" || s.text == "%clock_hi" ||
                                            s.text == "%globaltimer_hi")) {
        in_.d[0] = dst(0);
        in_.mode = std::uint8_t(s.text.ends_with("_hi") ? 1 : 0);
        in_.fn = &hClock;
        return;
    }
    if (d.kind == PtxOperand::Kind::Vec) {
        in_.a[0] = src(1, t);
        in_.nd = std::uint8_t(d.regs.size());
        if (in_.nd == 0 || in_.nd > 4) unsupported("mov unpack width");
        for (std::size_t k = 0; k < d.regs.size(); ++k) in_.d[k] = d.regs[k];
        in_.mode = std::uint8_t(sizeOf(t) * 8 / in_.nd);
        in_.fn = &Unpack::run;
        return;
    }
    in_.d[0] = dst(0);
    if (s.kind == PtxOperand::Kind::Vec) {
        in_.na = std::uint8_t(s.regs.size());
        if (in_.na == 0 || in_.na > 4) unsupported("mov pack width");
        for (std::size_t k = 0; k < s.regs.size(); ++k) in_.a[k] = s.regs[k];
        in_.mode = std::uint8_t(sizeOf(t) * 8 / in_.na);
        in_.fn = &Pack::run;
        return;
    }
    in_.a[0] = srcAt(1, 0, t);
    in_.fn = &Mov::run;
}

void Decoder::decodeCvt() {
    if (types_.size() < 2) unsupported("cvt without two types");
    if (types_[0] == PtxType::F16x2 || types_[1] == PtxType::F16x2) unsupported("packed f16x2 conversion");
    in_.type = types_[0];
    in_.type2 = types_[1];
    in_.d[0] = dst(0);
    in_.a[0] = src(1, types_[1]);
    in_.fn = &Cvt::run;
}

void Decoder::decodeSetp() {
    static const std::pair<const char*, Cmp> cmps[] = {
        {"eq", Cmp::Eq}, {"ne", Cmp::Ne}, {"lt", Cmp::Lt}, {"le", Cmp::Le}, {"gt", Cmp::Gt}, {"ge", Cmp::Ge},
        {"lo", Cmp::Lo}, {"ls", Cmp::Ls}, {"hi", Cmp::Hi}, {"hs", Cmp::Hs}, {"equ", Cmp::Equ}, {"neu", Cmp::Neu},
        {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan}};
    bool found = false;
    for (const auto& [name, c] : cmps)
        if (parts_.size() > 1 && parts_[1] == name) { in_.mode = std::uint8_t(c); found = true; }
    if (!found) unsupported("`" + joined() + "` comparison");
    const PtxType st = types_.empty() ? PtxType::None : types_.back();
    if (st == PtxType::F16 && base_ == "set") {
        in_.type = types_[0];
        in_.d[0] = dst(0);
        in_.a[0] = src(1, st);
        in_.a[1] = src(2, st);
        if (ops_.size() > 3) unsupported("set with a boolean operand");
        in_.fn = &HSet::run;
        return;
    }
    if (base_ == "set") {
        if (types_.size() < 2) unsupported("set without two types");
        if (ops_.size() > 3) unsupported("set with a boolean operand");
        in_.type = types_[0];
        in_.d[0] = dst(0);
        in_.a[0] = src(1, st);
        in_.a[1] = src(2, st);
        in_.fn = pickAnyT<SetVal>(st);
        if (!in_.fn) unsupported("`" + joined() + "` for this type");
        return;
    }
    if (has("and")) in_.rnd = std::uint8_t(BoolOp::And);
    else if (has("or")) in_.rnd = std::uint8_t(BoolOp::Or);
    else if (has("xor")) in_.rnd = std::uint8_t(BoolOp::Xor);
    else in_.rnd = std::uint8_t(BoolOp::None);
    need(3);
    in_.d[0] = ops_[0].reg;
    if (ops_[0].kind != PtxOperand::Kind::Reg) unsupported("setp destination");
    if (ops_[0].hasPair) in_.d[1] = ops_[0].reg2;
    in_.a[0] = src(1, st);
    in_.a[1] = src(2, st);
    if (ops_.size() > 3) in_.a[2] = srcAt(3, 2, PtxType::Pred);
    in_.type2 = st;
    in_.fn = st == PtxType::F16 ? &HSetp::run : pickAnyT<Setp>(st);
    if (!in_.fn) unsupported("`" + joined() + "` for this type");
}

void Decoder::decodeWarp() {
    const std::string& b = base_;
    if (b == "activemask") {
        in_.d[0] = dst(0);
        in_.fn = &hActivemask;
        return;
    }
    if (!has("sync")) unsupported("`" + joined() + "` without .sync (pre-Volta warp intrinsics)");
    in_.warpSync = true;
    if (b == "shfl") {
        static const std::pair<const char*, ShflMode> modes[] = {
            {"up", ShflMode::Up}, {"down", ShflMode::Down}, {"bfly", ShflMode::Bfly}, {"idx", ShflMode::Idx}};
        for (const auto& [name, m] : modes)
            if (has(name)) in_.mode = std::uint8_t(m);
        need(5);
        in_.d[0] = ops_[0].reg;
        if (ops_[0].hasPair) in_.d[1] = ops_[0].reg2;
        in_.a[0] = src(1, PtxType::B32);
        in_.a[1] = src(2, PtxType::B32);
        in_.a[2] = src(3, PtxType::B32);
        in_.a[3] = src(4, PtxType::B32);
        in_.fn = &hShfl;
        return;
    }
    if (b == "vote") {
        static const std::pair<const char*, VoteMode> modes[] = {
            {"all", VoteMode::All}, {"any", VoteMode::Any}, {"uni", VoteMode::Uni}, {"ballot", VoteMode::Ballot}};
        for (const auto& [name, m] : modes)
            if (has(name)) in_.mode = std::uint8_t(m);
        need(3);
        in_.d[0] = dst(0);
        in_.a[0] = srcAt(1, 0, PtxType::Pred);
        in_.a[1] = src(2, PtxType::B32);
        in_.fn = &hVote;
        return;
    }
    if (b == "redux") {
        static const std::pair<const char*, ReduxOp> modes[] = {
            {"add", ReduxOp::Add}, {"min", ReduxOp::Min}, {"max", ReduxOp::Max},
            {"and", ReduxOp::And}, {"or", ReduxOp::Or}, {"xor", ReduxOp::Xor}};
        for (const auto& [name, m] : modes)
            if (has(name)) in_.mode = std::uint8_t(m);
        if (isFloat(type())) unsupported("floating-point redux");
        need(3);
        in_.d[0] = dst(0);
        in_.a[0] = src(1, type());
        in_.a[1] = src(2, PtxType::B32);
        in_.fn = &hRedux;
        return;
    }
    if (b == "match") {
        need(3);
        in_.d[0] = ops_[0].reg;
        if (ops_[0].hasPair) in_.d[1] = ops_[0].reg2;
        in_.a[0] = src(1, type());
        in_.a[1] = src(2, PtxType::B32);
        in_.fn = has("all") ? &hMatchAll : &hMatchAny;
        return;
    }
    unsupported("`" + joined() + "`");
}

} // namespace

std::string decodeInstr(const std::string& opcode, const std::vector<PtxOperand>& ops, Instr& in,
                        const DecodeEnv& env) {
    try {
        Decoder(opcode, ops, in, env).run();
        return {};
    } catch (const Unsupported& u) {
        return u.why;
    }
}

} // namespace kw::sim
