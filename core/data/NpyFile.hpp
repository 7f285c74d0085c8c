#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian, C order,
// plain numeric dtypes. Anything else is refused with a message saying what.
#include "data/NdArray.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace kw {

class NpyFile {
public:
    // Throws kw::Error(Io) naming the file and the problem.
    // Files over maxBytes are refused before they are read.
    static NdArray read(const std::filesystem::path& path, std::uintmax_t maxBytes = UINTMAX_MAX);
    // `what` names the data in error messages (a file name or a buffer name).
    static NdArray decode(std::span<const std::byte> bytes, const std::string& what);

    // An empty shape writes a 1-D array of data.count() elements.
    static void write(const std::filesystem::path& path, const HostBuffer& data,
                      const std::vector<std::size_t>& shape = {});
    static std::vector<std::byte> encode(const HostBuffer& data, const std::vector<std::size_t>& shape = {});
};

} // namespace kw
