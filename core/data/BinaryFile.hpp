#pragma once
// Whole-file byte I/O and raw .bin arrays (the element type comes from the caller).
#include "data/HostBuffer.hpp"

#include <cstddef>
#include <filesystem>
#include <vector>

namespace kw {

class BinaryFile {
public:
    // Throw kw::Error(Io) naming the file.
    static std::vector<std::byte> readAll(const std::filesystem::path& path);
    static void writeAll(const std::filesystem::path& path, const std::vector<std::byte>& bytes);

    // A raw little-endian array: the file size must be a multiple of the element size.
    static HostBuffer read(const std::filesystem::path& path, DType dtype);
    static void write(const std::filesystem::path& path, const HostBuffer& data);
};

} // namespace kw
