#include "data/HalfFloat.hpp"

#include <cmath>

namespace kw {

namespace {

// A 16-bit format with one sign bit, expBits exponent bits and mantBits stored
// mantissa bits (f16: 5/10, bf16: 8/7). Rounds directly from double, so there is
// no double rounding through float.
std::uint16_t encode(double v, int expBits, int mantBits)
{
    const int bias = (1 << (expBits - 1)) - 1;
    const int emin = 1 - bias;
    const std::uint16_t expMask = std::uint16_t(((1u << expBits) - 1u) << mantBits);
    const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    if (std::isnan(v))
        return std::uint16_t(sign | expMask | (1u << (mantBits - 1)));
    const double a = std::fabs(v);
    if (std::isinf(a))
        return std::uint16_t(sign | expMask);
    if (a < std::ldexp(1.0, emin)) {
        // Subnormal: a = m * 2^(emin - mantBits). A carry into 1 << mantBits lands
        // exactly on the smallest normal's encoding.
        const double m = std::nearbyint(std::ldexp(a, mantBits - emin));
        return std::uint16_t(sign | std::uint16_t(m));
    }
    int e = 0;
    std::frexp(a, &e);
    int exponent = e - 1; // a = 1.f * 2^exponent
    double m = std::nearbyint(std::ldexp(a, mantBits - exponent));
    if (m >= std::ldexp(1.0, mantBits + 1)) {
        m = std::ldexp(1.0, mantBits);
        ++exponent;
    }
    if (exponent > bias)
        return std::uint16_t(sign | expMask);
    const auto fraction = std::uint16_t(m) - std::uint16_t(1u << mantBits);
    return std::uint16_t(sign | std::uint16_t((exponent + bias) << mantBits) | fraction);
}

double decode(std::uint16_t bits, int expBits, int mantBits)
{
    const int bias = (1 << (expBits - 1)) - 1;
    const unsigned expField = (bits >> mantBits) & ((1u << expBits) - 1u);
    const unsigned fraction = bits & ((1u << mantBits) - 1u);
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    if (expField == (1u << expBits) - 1u)
        return fraction ? std::nan("") : sign * INFINITY;
    if (expField == 0)
        return sign * std::ldexp(double(fraction), 1 - bias - mantBits);
    return sign * std::ldexp(double(fraction + (1u << mantBits)), int(expField) - bias - mantBits);
}

} // namespace

std::uint16_t halfFromDouble(double v) { return encode(v, 5, 10); }
std::uint16_t bfloat16FromDouble(double v) { return encode(v, 8, 7); }
double halfToDouble(std::uint16_t bits) { return decode(bits, 5, 10); }
double bfloat16ToDouble(std::uint16_t bits) { return decode(bits, 8, 7); }

} // namespace kw
