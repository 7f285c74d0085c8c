#pragma once
// Eight lanes' f32 values at a time with AVX2 and FMA, where the host has both (checked
// once at start-up): the whole-warp fma.rn.f32 and the fused load pair feeding one use
// them, with the same single rounding as hostFma (HostFma.hpp).
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define KW_SIM_F32_LANES 1

namespace kw::sim {

extern const bool kHostFma;

// Eight lanes' f32 operands: the low halves of eight 64-bit registers.
[[gnu::target("avx2,fma")]] inline __m256 lowHalves(const std::uint64_t* p)
{
    const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i x = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), low);
    const __m256i y = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4)), low);
    return _mm256_castsi256_ps(_mm256_permute2x128_si256(x, y, 0x20));
}

// Eight lanes' f32 bits into eight 64-bit registers, the high halves zero (as a 32-bit
// load or result leaves them).
[[gnu::target("avx2,fma")]] inline void storeLowHalves(std::uint64_t* d, __m256 v)
{
    const __m256i bits = _mm256_castps_si256(v);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(bits)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(bits, 1)));
}

// A NaN made the canonical 0x7fffffff (ArithmeticHandlers' nanResult), other values kept.
[[gnu::target("avx2,fma")]] inline __m256 canonicalNan(__m256 r)
{
    const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    return _mm256_blendv_ps(r, nan, _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
}

// a * b + c rounded once, a NaN result made canonical.
[[gnu::target("avx2,fma")]] inline __m256 fmaCanonical(__m256 a, __m256 b, __m256 c)
{
    return canonicalNan(_mm256_fmadd_ps(a, b, c));
}

} // namespace kw::sim
#else
namespace kw::sim {
inline constexpr bool kHostFma = false;
}
#endif
