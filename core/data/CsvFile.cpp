#include "data/CsvFile.hpp"

#include "data/BinaryFile.hpp"
#include "util/Error.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace kw {

namespace {

bool isSeparator(char c) { return c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\r'; }

// Shortest text that reads back to the same element value.
void appendValue(std::string& out, DType dtype, double v)
{
    char buf[64];
    std::to_chars_result r;
    if (!isFloating(dtype)) {
        if (dtype == DType::U64)
            r = std::to_chars(buf, buf + sizeof buf, static_cast<unsigned long long>(v));
        else
            r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
    } else if (dtype == DType::F64) {
        r = std::to_chars(buf, buf + sizeof buf, v);
    } else {
        // f16/bf16 values are exact floats, so float's shortest form round-trips them.
        r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
    }
    out.append(buf, r.ptr);
}

} // namespace

NdArray CsvFile::parse(std::string_view text, DType dtype, const std::string& what)
{
    std::vector<double> values;
    std::vector<std::size_t> rowLengths;
    std::size_t lineNo = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        ++lineNo;
        pos = eol + 1;
        std::size_t first = 0;
        while (first < line.size() && isSeparator(line[first]))
            ++first;
        if (first == line.size() || line[first] == '#')
            continue;
        std::size_t inRow = 0;
        std::size_t i = first;
        while (i < line.size()) {
            while (i < line.size() && isSeparator(line[i]))
                ++i;
            if (i >= line.size())
                break;
            std::size_t j = i;
            while (j < line.size() && !isSeparator(line[j]))
                ++j;
            const std::string token(line.substr(i, j - i));
            char* end = nullptr;
            const double v = std::strtod(token.c_str(), &end);
            if (end != token.c_str() + token.size())
                // Position only: the file's text is never quoted back.
                throw Error(ErrorCategory::Io,
                            what + ":" + std::to_string(lineNo) + ": value " + std::to_string(inRow + 1)
                                + " is not a number");
            values.push_back(v);
            ++inRow;
            i = j;
        }
        rowLengths.push_back(inRow);
    }

    NdArray array;
    array.data = HostBuffer(dtype, values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        array.data.set(i, values[i]);
    bool rectangular = rowLengths.size() > 1 && rowLengths.front() > 1;
    for (std::size_t n : rowLengths)
        rectangular = rectangular && n == rowLengths.front();
    if (rectangular)
        array.shape = {rowLengths.size(), rowLengths.front()};
    else
        array.shape = {values.size()};
    return array;
}

NdArray CsvFile::read(const std::filesystem::path& path, DType dtype, std::uintmax_t maxBytes)
{
    const HostBytes bytes = BinaryFile::readAll(path, maxBytes);
    return parse(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), dtype, path.string());
}

std::string CsvFile::format(const HostBuffer& data, const std::vector<std::size_t>& shape)
{
    const std::size_t rowLength = shape.size() >= 2 && shape.back() > 0 ? shape.back() : 1;
    std::string out;
    out.reserve(data.count() * 12);
    for (std::size_t i = 0; i < data.count(); ++i) {
        appendValue(out, data.dtype(), data.at(i));
        out += (i + 1) % rowLength == 0 ? '\n' : ',';
    }
    return out;
}

void CsvFile::write(const std::filesystem::path& path, const HostBuffer& data, const std::vector<std::size_t>& shape)
{
    const std::string text = format(data, shape);
    std::vector<std::byte> bytes(text.size());
    std::memcpy(bytes.data(), text.data(), text.size());
    BinaryFile::writeAll(path, bytes);
}

} // namespace kw
