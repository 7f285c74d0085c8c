#pragma once
// Whole-file byte I/O and raw .bin arrays (the element type comes from the caller).
#include "data/HostBuffer.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace kw {

class BinaryFile {
public:
    // Throw kw::Error(Io) naming the file. Only regular files are read (a FIFO or a
    // device would block or never end), and one over maxBytes is refused before it is read.
    static HostBytes readAll(const std::filesystem::path& path, std::uintmax_t maxBytes = UINTMAX_MAX);
    static void writeAll(const std::filesystem::path& path, std::span<const std::byte> bytes);

    // A raw little-endian array: the file size must be a multiple of the element size.
    static HostBuffer read(const std::filesystem::path& path, DType dtype, std::uintmax_t maxBytes = UINTMAX_MAX);
    // The element count read() would give, from the file's size: the same checks and
    // messages (the file is opened, not read), for judging a file without holding it.
    static std::size_t elementCount(const std::filesystem::path& path, DType dtype,
                                    std::uintmax_t maxBytes = UINTMAX_MAX);
    static void write(const std::filesystem::path& path, const HostBuffer& data);
};

} // namespace kw
