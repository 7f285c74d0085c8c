#include "doc/ScalarPacker.hpp"

#include "doc/Expression.hpp"
#include "util/Error.hpp"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

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
            throw Error(ErrorCategory::Document,
                        field + ": " + formatNumber(value) + " is out of range for " + toString(type) + " ("
                            + rangeText(type) + ")");
    } else if (std::isfinite(value)) {
        const double max = type == DType::F64 ? DBL_MAX
            : type == DType::F32              ? double(FLT_MAX)
            : type == DType::F16              ? 65504.0
                                              : 3.3895313892515355e38; // bf16
        if (std::fabs(value) > max)
            throw Error(ErrorCategory::Document,
                        field + ": " + formatNumber(value) + " is out of range for " + toString(type));
    }
    std::vector<std::byte> bytes(sizeOf(type));
    storeFromDouble(type, bytes.data(), value);
    return bytes;
}

std::vector<std::byte> packScalar(DType type, const std::string& text, double value, const std::string& field)
{
    const std::size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
    if (isFloating(type) || first == std::string::npos)
        return packScalar(type, value, field);
    const char* begin = text.data() + first;
    const char* end = text.data() + last + 1;
    const bool negative = *begin == '-';
    std::uint64_t magnitude = 0;
    const auto [ptr, ec] = std::from_chars(begin + (negative ? 1 : 0), end, magnitude);
    if (ptr != end || ec != std::errc() || begin + (negative ? 1 : 0) == end)
        return packScalar(type, value, field); // an expression, or too large for any type
    const bool is64 = type == DType::I64 || type == DType::U64;
    if (!is64)
        return packScalar(type, value, field); // exact in a double already
    std::uint64_t bits = 0;
    if (type == DType::U64) {
        if (negative && magnitude != 0)
            return packScalar(type, value, field); // out of range: the usual message
        bits = magnitude;
    } else {
        const std::uint64_t top = std::uint64_t(std::numeric_limits<std::int64_t>::max());
        if (magnitude > top + (negative ? 1 : 0))
            return packScalar(type, value, field);
        bits = negative ? ~magnitude + 1 : magnitude;
    }
    std::vector<std::byte> bytes(8);
    std::memcpy(bytes.data(), &bits, 8);
    return bytes;
}

} // namespace kw
