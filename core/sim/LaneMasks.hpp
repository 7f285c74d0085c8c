#pragma once
// A warp's register as a mask of lanes: bit l set where lane l's value is not zero (a
// predicate that guards an instruction). Four lanes at a time with AVX2 where the host has
// it (F32Lanes' start-up check, which asks for AVX2 and FMA), else lane by lane.
#include "sim/F32Lanes.hpp"

#include <cstdint>

namespace kw::sim {

#ifdef KW_SIM_F32_LANES
[[gnu::target("avx2")]] inline std::uint32_t nonZeroLanesAvx2(const std::uint64_t* p)
{
    std::uint32_t zero = 0;
    for (int l = 0; l < 32; l += 4) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + l));
        const __m256i z = _mm256_cmpeq_epi64(v, _mm256_setzero_si256());
        zero |= std::uint32_t(_mm256_movemask_pd(_mm256_castsi256_pd(z))) << l;
    }
    return ~zero;
}
#endif

// All 32 lanes of p are read (a warp's register has them all, whichever lanes run).
inline std::uint32_t nonZeroLanes(const std::uint64_t* p)
{
#ifdef KW_SIM_F32_LANES
    if (kHostFma)
        return nonZeroLanesAvx2(p);
#endif
    std::uint32_t m = 0;
    for (int l = 0; l < 32; ++l)
        m |= std::uint32_t(p[l] != 0) << l;
    return m;
}

} // namespace kw::sim
