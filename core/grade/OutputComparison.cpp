#include "grade/OutputComparison.hpp"

#include "data/HalfFloat.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace kw::grade {
namespace {

// Sign-magnitude bits mapped onto a line where neighbouring values are one apart.
std::int64_t ordered(std::uint64_t bits, int width)
{
    const std::uint64_t sign = std::uint64_t(1) << (width - 1);
    const std::uint64_t magnitude = bits & (sign - 1);
    return (bits & sign) ? -std::int64_t(magnitude) : std::int64_t(magnitude);
}

std::uint64_t bitsOf(DType dtype, double v, int& width)
{
    switch (dtype) {
    case DType::F64: width = 64; return std::bit_cast<std::uint64_t>(v);
    case DType::F16: width = 16; return halfFromFloat(float(v));
    case DType::BF16: width = 16; return bfloat16FromFloat(float(v));
    default: width = 32; return std::bit_cast<std::uint32_t>(float(v));
    }
}

} // namespace

const char* OutputComparison::toString(Mode mode)
{
    switch (mode) {
    case Mode::Exact: return "exact";
    case Mode::Tolerance: return "tolerance";
    case Mode::Ulp: return "ulp";
    }
    return "?";
}

std::uint64_t OutputComparison::ulpDistance(DType dtype, double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::numeric_limits<std::uint64_t>::max();
    if (!isFloating(dtype)) {
        const double d = std::fabs(a - b);
        return d >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(d);
    }
    int width = 32;
    const std::uint64_t bitsA = bitsOf(dtype, a, width);
    const std::uint64_t bitsB = bitsOf(dtype, b, width);
    const std::int64_t x = ordered(bitsA, width), y = ordered(bitsB, width);
    return x > y ? std::uint64_t(x - y) : std::uint64_t(y - x);
}

bool OutputComparison::matches(DType dtype, double expected, double got) const
{
    if (std::isnan(expected) || std::isnan(got))
        return nan == Nan::Match && std::isnan(expected) && std::isnan(got);
    switch (mode) {
    case Mode::Exact: return expected == got;
    case Mode::Tolerance:
        if (std::isinf(expected) || std::isinf(got))
            return expected == got;
        return std::fabs(got - expected) <= atol + rtol * std::fabs(expected);
    case Mode::Ulp:
        if (std::isinf(expected) || std::isinf(got))
            return expected == got;
        return ulpDistance(dtype, expected, got) <= ulp;
    }
    return false;
}

ComparisonResult OutputComparison::compare(const HostBuffer& expected, const HostBuffer& got,
                                           std::optional<double> sentinel) const
{
    ComparisonResult r;
    if (sentinel)
        sentinel = asHeld(got.dtype(), *sentinel);
    const std::size_t n = std::min(expected.count(), got.count());
    for (std::size_t i = 0; i < n; ++i) {
        const double e = expected.at(i), g = got.at(i);
        ++r.checked;
        if (matches(expected.dtype(), e, g))
            continue;
        const bool unwritten = sentinel && g == *sentinel;
        ++r.wrong;
        if (unwritten)
            ++r.unwritten;
        if (!r.first)
            r.first = ElementMismatch{i, e, g, unwritten};
    }
    return r;
}

double OutputComparison::asHeld(DType dtype, double value)
{
    HostBuffer held(dtype, 1);
    held.set(0, value);
    return held.at(0);
}

std::string OutputComparison::describe() const
{
    std::string text;
    switch (mode) {
    case Mode::Exact: text = "exact"; break;
    case Mode::Tolerance: text = fmt::format("atol {:g} rtol {:g}", atol, rtol); break;
    case Mode::Ulp: text = fmt::format("ulp <= {}", ulp); break;
    }
    if (nan == Nan::Wrong)
        text += ", NaN is wrong";
    return text;
}

} // namespace kw::grade
