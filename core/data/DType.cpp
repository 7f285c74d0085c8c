#include "data/DType.hpp"

#include "data/HalfFloat.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace kw {

namespace {

struct DTypeInfo {
    DType type;
    const char* name;
    std::size_t size;
    const char* cType;
    const char* npy;
    bool floating;
};

constexpr std::array<DTypeInfo, 12> kInfo = {{
    {DType::I8, "i8", 1, "signed char", "|i1", false},
    {DType::U8, "u8", 1, "unsigned char", "|u1", false},
    {DType::I16, "i16", 2, "short", "<i2", false},
    {DType::U16, "u16", 2, "unsigned short", "<u2", false},
    {DType::I32, "i32", 4, "int", "<i4", false},
    {DType::U32, "u32", 4, "unsigned int", "<u4", false},
    {DType::I64, "i64", 8, "long long", "<i8", false},
    {DType::U64, "u64", 8, "unsigned long long", "<u8", false},
    {DType::F16, "f16", 2, "__half", "<f2", true},
    {DType::BF16, "bf16", 2, "__nv_bfloat16", "<u2", true},
    {DType::F32, "f32", 4, "float", "<f4", true},
    {DType::F64, "f64", 8, "double", "<f8", true},
}};

const DTypeInfo& info(DType t) { return kInfo[static_cast<std::size_t>(t)]; }

// C spellings as they appear in kernel signatures, after whitespace normalisation.
struct CName {
    const char* name;
    DType type;
};
constexpr CName kCNames[] = {
    {"float", DType::F32},
    {"double", DType::F64},
    {"__half", DType::F16},
    {"half", DType::F16},
    {"__nv_bfloat16", DType::BF16},
    {"nv_bfloat16", DType::BF16},
    {"char", DType::I8},
    {"signed char", DType::I8},
    {"int8_t", DType::I8},
    {"unsigned char", DType::U8},
    {"uint8_t", DType::U8},
    {"bool", DType::U8},
    {"short", DType::I16},
    {"short int", DType::I16},
    {"signed short", DType::I16},
    {"signed short int", DType::I16},
    {"int16_t", DType::I16},
    {"unsigned short", DType::U16},
    {"unsigned short int", DType::U16},
    {"uint16_t", DType::U16},
    {"int", DType::I32},
    {"signed", DType::I32},
    {"signed int", DType::I32},
    {"int32_t", DType::I32},
    {"unsigned", DType::U32},
    {"unsigned int", DType::U32},
    {"uint32_t", DType::U32},
    // long is 64-bit on the LP64 hosts NVRTC targets here.
    {"long", DType::I64},
    {"long int", DType::I64},
    {"signed long", DType::I64},
    {"long long", DType::I64},
    {"long long int", DType::I64},
    {"signed long long", DType::I64},
    {"signed long long int", DType::I64},
    {"int64_t", DType::I64},
    {"ptrdiff_t", DType::I64},
    {"unsigned long", DType::U64},
    {"unsigned long int", DType::U64},
    {"unsigned long long", DType::U64},
    {"unsigned long long int", DType::U64},
    {"uint64_t", DType::U64},
    {"size_t", DType::U64},
    // glibc's <sys/types.h> names, which nvcc's implicit headers bring on Linux.
    {"uint", DType::U32},
    {"ushort", DType::U16},
    {"ulong", DType::U64},
};

// Other spellings accepted in documents: numpy names.
constexpr CName kAliases[] = {
    {"int8", DType::I8},     {"uint8", DType::U8},      {"int16", DType::I16},   {"uint16", DType::U16},
    {"int32", DType::I32},   {"uint32", DType::U32},    {"int64", DType::I64},   {"uint64", DType::U64},
    {"float16", DType::F16}, {"bfloat16", DType::BF16}, {"float32", DType::F32}, {"float64", DType::F64},
};

// "const  unsigned   int" -> "unsigned int"; drops cv-qualifiers and std:: prefixes.
std::string normaliseCType(std::string_view s)
{
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
            ++i;
        std::size_t j = i;
        while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])))
            ++j;
        std::string_view word = s.substr(i, j - i);
        if (word.starts_with("std::"))
            word.remove_prefix(5);
        if (!word.empty() && word != "const" && word != "volatile") {
            if (!out.empty())
                out += ' ';
            out += word;
        }
        i = j;
    }
    return out;
}

template <typename T> T saturate(double v)
{
    if (std::isnan(v))
        return 0;
    const double r = std::round(v);
    // The bounds as doubles: max()+1 is a power of two and exact.
    constexpr double lo = double(std::numeric_limits<T>::min());
    constexpr double hiExclusive = 2.0 * (double(std::numeric_limits<T>::max() / 2) + 1.0);
    if (r < lo)
        return std::numeric_limits<T>::min();
    if (r >= hiExclusive)
        return std::numeric_limits<T>::max();
    return static_cast<T>(r);
}

template <typename T> double load(const void* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
}

template <typename T> void store(void* p, T v) { std::memcpy(p, &v, sizeof v); }

} // namespace

std::size_t sizeOf(DType t) { return info(t).size; }
const char* toString(DType t) { return info(t).name; }
const char* cTypeName(DType t) { return info(t).cType; }
bool isFloating(DType t) { return info(t).floating; }
const char* npyDescr(DType t) { return info(t).npy; }

std::optional<DType> parseDType(std::string_view s)
{
    for (const auto& i : kInfo)
        if (s == i.name)
            return i.type;
    for (const auto& a : kAliases)
        if (s == a.name)
            return a.type;
    return dtypeForCType(s);
}

std::optional<DType> dtypeForCType(std::string_view cType)
{
    const std::string n = normaliseCType(cType);
    for (const auto& c : kCNames)
        if (n == c.name)
            return c.type;
    return std::nullopt;
}

double loadAsDouble(DType t, const void* p)
{
    switch (t) {
    case DType::I8: return load<std::int8_t>(p);
    case DType::U8: return load<std::uint8_t>(p);
    case DType::I16: return load<std::int16_t>(p);
    case DType::U16: return load<std::uint16_t>(p);
    case DType::I32: return load<std::int32_t>(p);
    case DType::U32: return load<std::uint32_t>(p);
    case DType::I64: return load<std::int64_t>(p);
    case DType::U64: return load<std::uint64_t>(p);
    case DType::F16: {
        std::uint16_t b;
        std::memcpy(&b, p, 2);
        return halfToDouble(b);
    }
    case DType::BF16: {
        std::uint16_t b;
        std::memcpy(&b, p, 2);
        return bfloat16ToDouble(b);
    }
    case DType::F32: return load<float>(p);
    case DType::F64: return load<double>(p);
    }
    return 0.0;
}

void storeFromDouble(DType t, void* p, double v)
{
    switch (t) {
    case DType::I8: store(p, saturate<std::int8_t>(v)); break;
    case DType::U8: store(p, saturate<std::uint8_t>(v)); break;
    case DType::I16: store(p, saturate<std::int16_t>(v)); break;
    case DType::U16: store(p, saturate<std::uint16_t>(v)); break;
    case DType::I32: store(p, saturate<std::int32_t>(v)); break;
    case DType::U32: store(p, saturate<std::uint32_t>(v)); break;
    case DType::I64: store(p, saturate<std::int64_t>(v)); break;
    case DType::U64: store(p, saturate<std::uint64_t>(v)); break;
    case DType::F16: store(p, halfFromDouble(v)); break;
    case DType::BF16: store(p, bfloat16FromDouble(v)); break;
    // Beyond float's range a double becomes infinity, as a C cast does in practice.
    case DType::F32: store(p, static_cast<float>(v)); break;
    case DType::F64: store(p, v); break;
    }
}

} // namespace kw
