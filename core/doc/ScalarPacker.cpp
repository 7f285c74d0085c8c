#include "doc/ScalarPacker.hpp"

#include "doc/Expression.hpp"
#include "util/Error.hpp"

#include <cfloat>
#include <cmath>

namespace kw {

namespace {

struct Range {
    double lo, hi; // inclusive, as doubles; the 64-bit tops are checked as exclusive powers of two
};

Range integerRange(DType t)
{
    switch (t) {
    case DType::I8: return {-128.0, 127.0};
    case DType::U8: return {0.0, 255.0};
    case DType::I16: return {-32768.0, 32767.0};
    case DType::U16: return {0.0, 65535.0};
    case DType::I32: return {-2147483648.0, 2147483647.0};
    case DType::U32: return {0.0, 4294967295.0};
    case DType::I64: return {-9223372036854775808.0, 9223372036854775807.0};
    case DType::U64: return {0.0, 18446744073709551615.0};
    default: return {0.0, 0.0};
    }
}

std::string rangeText(DType t)
{
    switch (t) {
    case DType::I64: return "-9223372036854775808..9223372036854775807";
    case DType::U64: return "0..18446744073709551615";
    default: {
        const Range r = integerRange(t);
        return formatNumber(r.lo) + ".." + formatNumber(r.hi);
    }
    }
}

} // namespace

std::vector<std::byte> packScalar(DType type, double value, const std::string& field)
{
    if (!isFloating(type)) {
        if (!std::isfinite(value) || value != std::floor(value))
            throw Error(ErrorCategory::Document,
                        field + ": " + formatNumber(value) + " is not an integer, the type is " + toString(type));
        const Range r = integerRange(type);
        // For 64-bit types r.hi rounds up to 2^63 or 2^64, so the top is exclusive there.
        const bool tooHigh = (type == DType::I64 || type == DType::U64) ? value >= r.hi : value > r.hi;
        if (value < r.lo || tooHigh)
            throw Error(ErrorCategory::Document, field + ": " + formatNumber(value) + " is out of range for "
                                                     + toString(type) + " (" + rangeText(type) + ")");
    } else if (std::isfinite(value)) {
        const double max = type == DType::F64 ? DBL_MAX
            : type == DType::F32             ? double(FLT_MAX)
            : type == DType::F16             ? 65504.0
                                             : 3.3895313892515355e38; // bf16
        if (std::fabs(value) > max)
            throw Error(ErrorCategory::Document, field + ": " + formatNumber(value) + " is out of range for "
                                                     + toString(type));
    }
    std::vector<std::byte> bytes(sizeOf(type));
    storeFromDouble(type, bytes.data(), value);
    return bytes;
}

} // namespace kw
