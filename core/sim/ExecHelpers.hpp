#pragma once
// Lane loops, register bit casts and float helpers shared by the instruction handlers.
#include "sim/PtxModule.hpp"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace kw::sim {

template <class T> inline T get(std::uint64_t v)
{
    T r;
    std::memcpy(&r, &v, sizeof(T));
    return r;
}

template <class T> inline std::uint64_t put(T x)
{
    std::uint64_t v = 0;
    std::memcpy(&v, &x, sizeof(T));
    return v;
}

// Runs f(lane) for every lane set in mask; the full warp takes a loop the compiler can unroll.
template <class F> inline void forLanes(std::uint32_t mask, F&& f)
{
    if (mask == 0xffffffffu) {
        for (int l = 0; l < 32; ++l)
            f(l);
    } else {
        while (mask) {
            int l = __builtin_ctz(mask);
            mask &= mask - 1;
            f(l);
        }
    }
}

inline float flushSubnormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline double flushSubnormal(double x) { return x; } // .ftz applies to .f32 only

template <class T> inline T saturate01(T x)
{
    if (std::isnan(x))
        return T(0);
    return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}

// Sets the host rounding mode for the directed-rounding PTX modifiers (.rz/.rm/.rp).
class RoundingScope {
public:
    explicit RoundingScope(RoundMode rnd)
    {
        int mode = FE_TONEAREST;
        switch (rnd) {
        case RoundMode::Rz: mode = FE_TOWARDZERO; break;
        case RoundMode::Rm: mode = FE_DOWNWARD; break;
        case RoundMode::Rp: mode = FE_UPWARD; break;
        default: return;
        }
        changed_ = true;
        std::fesetround(mode);
    }
    ~RoundingScope()
    {
        if (changed_)
            std::fesetround(FE_TONEAREST);
    }
    RoundingScope(const RoundingScope&) = delete;
    RoundingScope& operator=(const RoundingScope&) = delete;

private:
    bool changed_ = false;
};

inline bool plainRounding(const Instr& in)
{
    return !in.ftz && !in.sat && (in.round == RoundMode::Default || in.round == RoundMode::Rn);
}

} // namespace kw::sim
