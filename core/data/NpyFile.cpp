#include "data/NpyFile.hpp"

#include "data/BinaryFile.hpp"
#include "util/Error.hpp"

#include <cstring>
#include <optional>
#include <string_view>

namespace kw {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;

[[noreturn]] void fail(const std::string& what, const std::string& why)
{
    throw Error(ErrorCategory::Io, what + ": " + why);
}

// The value text after 'key': in the header dict, up to its end.
std::optional<std::string_view> dictValue(std::string_view header, std::string_view key)
{
    for (char quote : {'\'', '"'}) {
        const std::string quoted = std::string(1, quote) + std::string(key) + quote;
        const std::size_t at = header.find(quoted);
        if (at == std::string_view::npos)
            continue;
        std::size_t p = header.find(':', at + quoted.size());
        if (p == std::string_view::npos)
            return std::nullopt;
        ++p;
        while (p < header.size() && header[p] == ' ')
            ++p;
        return header.substr(p);
    }
    return std::nullopt;
}

DType dtypeForDescr(std::string_view descr, const std::string& what)
{
    if (descr.size() < 2)
        fail(what, "unsupported dtype '" + std::string(descr) + "'");
    const char order = descr[0];
    const std::string_view kind = descr.substr(1);
    const bool oneByte = kind == "i1" || kind == "u1" || kind == "b1";
    if (order == '>' && !oneByte)
        fail(what, "big-endian data ('" + std::string(descr) + "') is not supported; save it little-endian");
    if (order != '<' && order != '|' && order != '=' && order != '>')
        fail(what, "unsupported dtype '" + std::string(descr) + "'");
    struct Kind {
        std::string_view name;
        DType type;
    };
    static constexpr Kind kinds[] = {
        {"i1", DType::I8},  {"u1", DType::U8},  {"b1", DType::U8},  {"i2", DType::I16},
        {"u2", DType::U16}, {"i4", DType::I32}, {"u4", DType::U32}, {"i8", DType::I64},
        {"u8", DType::U64}, {"f2", DType::F16}, {"f4", DType::F32}, {"f8", DType::F64},
    };
    for (const auto& k : kinds)
        if (kind == k.name)
            return k.type;
    if (kind.starts_with('O'))
        fail(what, "object arrays are not supported (dtype '" + std::string(descr) + "')");
    fail(what, "unsupported dtype '" + std::string(descr) + "' (numeric types only: i1..i8, u1..u8, f2, f4, f8)");
}

std::vector<std::size_t> parseShape(std::string_view value, const std::string& what)
{
    if (value.empty() || value[0] != '(')
        fail(what, "header has no shape tuple");
    const std::size_t close = value.find(')');
    if (close == std::string_view::npos)
        fail(what, "header shape tuple is not closed");
    std::vector<std::size_t> shape;
    std::string_view inner = value.substr(1, close - 1);
    std::size_t i = 0;
    while (i < inner.size()) {
        while (i < inner.size() && (inner[i] == ' ' || inner[i] == ','))
            ++i;
        if (i >= inner.size())
            break;
        std::size_t v = 0;
        bool digits = false;
        while (i < inner.size() && inner[i] >= '0' && inner[i] <= '9') {
            if (__builtin_mul_overflow(v, std::size_t(10), &v)
                || __builtin_add_overflow(v, std::size_t(inner[i] - '0'), &v))
                fail(what, "header shape has a dimension larger than 64 bits");
            ++i;
            digits = true;
        }
        if (!digits)
            fail(what, "header shape '" + std::string(value.substr(0, close + 1)) + "' is not a tuple of integers");
        shape.push_back(v);
    }
    return shape;
}

std::string shapeText(const std::vector<std::size_t>& shape)
{
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s += std::to_string(shape[i]);
        if (shape.size() == 1 || i + 1 < shape.size())
            s += ",";
        if (i + 1 < shape.size())
            s += " ";
    }
    return s + ")";
}

} // namespace

NdArray NpyFile::decode(std::span<const std::byte> bytes, const std::string& what)
{
    if (bytes.size() < kMagicSize + 4 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
        fail(what, "not a .npy file (no \\x93NUMPY magic)");
    const auto u8 = [&](std::size_t i) { return static_cast<std::uint32_t>(bytes[i]); };
    const std::uint32_t major = u8(6);
    std::size_t headerLen = 0;
    std::size_t headerStart = 0;
    if (major == 1) {
        headerLen = u8(8) | (u8(9) << 8);
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            fail(what, "truncated header");
        headerLen = u8(8) | (u8(9) << 8) | (u8(10) << 16) | (u8(11) << 24);
        headerStart = 12;
    } else {
        fail(what,
             ".npy format version " + std::to_string(major) + "." + std::to_string(u8(7))
                 + " is not supported (1.0, 2.0 and 3.0 are)");
    }
    if (bytes.size() < headerStart + headerLen)
        fail(what, "truncated header");
    const std::string header(reinterpret_cast<const char*>(bytes.data()) + headerStart, headerLen);

    const auto descrValue = dictValue(header, "descr");
    if (!descrValue || descrValue->empty())
        fail(what, "header has no 'descr'");
    if ((*descrValue)[0] == '[')
        fail(what, "structured arrays are not supported");
    const char quote = (*descrValue)[0];
    const std::size_t end = descrValue->find(quote, 1);
    if ((quote != '\'' && quote != '"') || end == std::string_view::npos)
        fail(what, "header 'descr' is not a string");
    const DType dtype = dtypeForDescr(descrValue->substr(1, end - 1), what);

    const auto fortran = dictValue(header, "fortran_order");
    if (!fortran)
        fail(what, "header has no 'fortran_order'");
    if (fortran->starts_with("True"))
        fail(what, "Fortran-order arrays are not supported; save with np.ascontiguousarray");

    const auto shapeValue = dictValue(header, "shape");
    if (!shapeValue)
        fail(what, "header has no 'shape'");
    NdArray array;
    array.shape = parseShape(*shapeValue, what);
    const auto counted = NdArray::checkedElementCount(array.shape);
    std::size_t need = 0;
    if (!counted || __builtin_mul_overflow(*counted, sizeOf(dtype), &need))
        fail(what, "header shape " + shapeText(array.shape) + " is too large (its size overflows 64 bits)");
    const std::size_t count = *counted;
    const std::size_t dataStart = headerStart + headerLen;
    if (bytes.size() - dataStart < need)
        fail(what,
             "holds " + std::to_string(bytes.size() - dataStart) + " data bytes, shape " + shapeText(array.shape)
                 + " needs " + std::to_string(need));
    array.data = HostBuffer::uninitialised(dtype, count);
    std::memcpy(array.data.data(), bytes.data() + dataStart, need);
    return array;
}

NdArray NpyFile::read(const std::filesystem::path& path, std::uintmax_t maxBytes)
{
    return decode(BinaryFile::readAll(path, maxBytes), path.string());
}

std::vector<std::byte> NpyFile::encode(const HostBuffer& data, const std::vector<std::size_t>& shape)
{
    const std::vector<std::size_t> s = shape.empty() ? std::vector<std::size_t>{data.count()} : shape;
    if (NdArray::elementCount(s) != data.count())
        throw Error(ErrorCategory::Internal,
                    "shape " + shapeText(s) + " does not hold " + std::to_string(data.count()) + " elements");
    std::string header = std::string("{'descr': '") + npyDescr(data.dtype())
        + "', 'fortran_order': False, 'shape': " + shapeText(s) + ", }";
    // Pad with spaces so the data starts on a 64-byte boundary; the header ends in '\n'.
    const bool v1 = header.size() + 1 + 10 <= 65535;
    const std::size_t prefix = v1 ? 10 : 12;
    const std::size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
    header.append(total - prefix - header.size() - 1, ' ');
    header += '\n';

    std::vector<std::byte> out(total + data.byteSize());
    std::memcpy(out.data(), kMagic, kMagicSize);
    out[6] = std::byte(v1 ? 1 : 2);
    out[7] = std::byte(0);
    const std::size_t len = header.size();
    for (std::size_t i = 0; i < prefix - 8; ++i)
        out[8 + i] = std::byte((len >> (8 * i)) & 0xff);
    std::memcpy(out.data() + prefix, header.data(), header.size());
    if (data.byteSize())
        std::memcpy(out.data() + total, data.data(), data.byteSize());
    return out;
}

void NpyFile::write(const std::filesystem::path& path, const HostBuffer& data, const std::vector<std::size_t>& shape)
{
    BinaryFile::writeAll(path, encode(data, shape));
}

} // namespace kw
