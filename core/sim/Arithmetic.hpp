#pragma once
// The scalar arithmetic of PTX instructions, one template per operation, with the
// edge cases the GPU defines (integer wrap, division by zero, NaN in min/max,
// shift clamping, comparisons that are true on NaN). No lanes, no registers.
#include "sim/Instr.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace kw::sim {

template <class T> using U_t = std::make_unsigned_t<T>;

template <class T> struct OpAdd {
    static T f(T a, T b)
    {
        if constexpr (std::is_integral_v<T>)
            return T(U_t<T>(a) + U_t<T>(b));
        else
            return a + b;
    }
};
template <class T> struct OpSub {
    static T f(T a, T b)
    {
        if constexpr (std::is_integral_v<T>)
            return T(U_t<T>(a) - U_t<T>(b));
        else
            return a - b;
    }
};
template <class T> struct OpMul {
    static T f(T a, T b)
    {
        if constexpr (std::is_integral_v<T>)
            return T(U_t<T>(a) * U_t<T>(b));
        else
            return a * b;
    }
};
template <class T> struct OpMulHi {
    static T f(T a, T b)
    {
        if constexpr (sizeof(T) == 8) {
            using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
            return T((W(a) * W(b)) >> 64);
        } else {
            using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
            return T((W(a) * W(b)) >> (8 * sizeof(T)));
        }
    }
};
template <class T> struct OpAnd {
    static T f(T a, T b) { return a & b; }
};
template <class T> struct OpOr {
    static T f(T a, T b) { return a | b; }
};
template <class T> struct OpXor {
    static T f(T a, T b) { return a ^ b; }
};
template <class T> struct OpMinI {
    static T f(T a, T b) { return a < b ? a : b; }
};
template <class T> struct OpMaxI {
    static T f(T a, T b) { return a > b ? a : b; }
};
// PTX min/max: a NaN operand yields the other one; -0 is below +0.
template <class T> struct OpMinF {
    static T f(T a, T b)
    {
        if (std::isnan(a))
            return std::isnan(b) ? std::numeric_limits<T>::quiet_NaN() : b;
        if (std::isnan(b))
            return a;
        if (a == b)
            return std::signbit(a) ? a : b;
        return a < b ? a : b;
    }
};
template <class T> struct OpMaxF {
    static T f(T a, T b)
    {
        if (std::isnan(a))
            return std::isnan(b) ? std::numeric_limits<T>::quiet_NaN() : b;
        if (std::isnan(b))
            return a;
        if (a == b)
            return std::signbit(a) ? b : a;
        return a > b ? a : b;
    }
};
template <class T> struct OpDivF {
    static T f(T a, T b) { return a / b; }
};
template <class T> struct OpCopysign {
    static T f(T a, T b) { return std::copysign(b, a); }
};
// Integer division as the GPU's sequence computes it: x/0 is all ones for unsigned,
// -1 or 1 for signed (by the dividend's sign); x%0 is x; INT_MIN/-1 wraps.
template <class T> struct OpDiv {
    static T f(T a, T b)
    {
        if (b == 0) {
            if constexpr (std::is_signed_v<T>)
                return a < 0 ? T(1) : T(-1);
            else
                return std::numeric_limits<T>::max();
        }
        if constexpr (std::is_signed_v<T>)
            if (a == std::numeric_limits<T>::min() && b == T(-1))
                return a;
        return a / b;
    }
};
template <class T> struct OpRem {
    static T f(T a, T b)
    {
        if (b == 0)
            return a;
        if constexpr (std::is_signed_v<T>)
            if (a == std::numeric_limits<T>::min() && b == T(-1))
                return 0;
        return a % b;
    }
};
// Shift amounts are unsigned and clamp at the register width.
template <class T> struct OpShl {
    static T f(T a, std::uint32_t n) { return n >= 8 * sizeof(T) ? T(0) : T(U_t<T>(a) << n); }
};
template <class T> struct OpShr {
    static T f(T a, std::uint32_t n)
    {
        if (n >= 8 * sizeof(T))
            n = 8 * sizeof(T) - 1 + (std::is_signed_v<T> ? 0 : 1);
        if (n >= 8 * sizeof(T))
            return T(0);
        return T(a >> n);
    }
};

template <class T> struct OpNeg {
    static T f(T a)
    {
        if constexpr (std::is_integral_v<T>)
            return T(U_t<T>(0) - U_t<T>(a));
        else
            return -a;
    }
};
template <class T> struct OpAbs {
    static T f(T a)
    {
        if constexpr (std::is_integral_v<T>)
            return a < 0 ? OpNeg<T>::f(a) : a;
        else
            return std::fabs(a);
    }
};
template <class T> struct OpNot {
    static T f(T a) { return T(~a); }
};
template <class T> struct OpCnot {
    static T f(T a) { return a == 0 ? T(1) : T(0); }
};
template <class T> struct OpSqrt {
    static T f(T a) { return std::sqrt(a); }
};
template <class T> struct OpRsqrt {
    static T f(T a) { return T(1) / std::sqrt(a); }
};
template <class T> struct OpRcp {
    static T f(T a) { return T(1) / a; }
};
template <class T> struct OpEx2 {
    static T f(T a) { return std::exp2(a); }
};
template <class T> struct OpLg2 {
    static T f(T a) { return std::log2(a); }
};
template <class T> struct OpSin {
    static T f(T a) { return std::sin(a); }
};
template <class T> struct OpCos {
    static T f(T a) { return std::cos(a); }
};
template <class T> struct OpTanh {
    static T f(T a) { return std::tanh(a); }
};

template <class T> inline bool compare(CmpOp c, T a, T b)
{
    if constexpr (std::is_floating_point_v<T>) {
        const bool un = std::isnan(a) || std::isnan(b);
        switch (c) {
        case CmpOp::Eq: return !un && a == b;
        case CmpOp::Ne: return !un && a != b;
        case CmpOp::Lt: return !un && a < b;
        case CmpOp::Le: return !un && a <= b;
        case CmpOp::Gt: return !un && a > b;
        case CmpOp::Ge: return !un && a >= b;
        case CmpOp::Equ: return un || a == b;
        case CmpOp::Neu: return un || a != b;
        case CmpOp::Ltu: return un || a < b;
        case CmpOp::Leu: return un || a <= b;
        case CmpOp::Gtu: return un || a > b;
        case CmpOp::Geu: return un || a >= b;
        case CmpOp::Num: return !un;
        case CmpOp::Nan: return un;
        default: return false;
        }
    } else {
        using UT = U_t<T>;
        switch (c) {
        case CmpOp::Eq: return a == b;
        case CmpOp::Ne: return a != b;
        case CmpOp::Lt: return a < b;
        case CmpOp::Le: return a <= b;
        case CmpOp::Gt: return a > b;
        case CmpOp::Ge: return a >= b;
        case CmpOp::Lo: return UT(a) < UT(b);
        case CmpOp::Ls: return UT(a) <= UT(b);
        case CmpOp::Hi: return UT(a) > UT(b);
        case CmpOp::Hs: return UT(a) >= UT(b);
        default: return false;
        }
    }
}

inline bool combine(BoolOp op, bool x, bool c)
{
    switch (op) {
    case BoolOp::And: return x && c;
    case BoolOp::Or: return x || c;
    case BoolOp::Xor: return x != c;
    default: return x;
    }
}

} // namespace kw::sim
