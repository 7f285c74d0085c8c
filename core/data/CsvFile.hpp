#pragma once
// Numbers as text: separated by commas, whitespace or newlines; lines starting
// with '#' are comments. Reading keeps the row structure as a 2-D shape when
// every row has the same number of values (more than one row and column).
#include "data/NdArray.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

class CsvFile {
public:
    // Throws kw::Error(Io) naming the file, line and the text that is not a number.
    // Files over maxBytes are refused before they are read.
    static NdArray read(const std::filesystem::path& path, DType dtype, std::uintmax_t maxBytes = UINTMAX_MAX);
    static NdArray parse(std::string_view text, DType dtype, const std::string& what);

    // One row per line: the last dimension of the shape is the row length
    // (a 1-D buffer is one value per line).
    static void write(const std::filesystem::path& path, const HostBuffer& data,
                      const std::vector<std::size_t>& shape = {});
    static std::string format(const HostBuffer& data, const std::vector<std::size_t>& shape = {});
};

} // namespace kw
