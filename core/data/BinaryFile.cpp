#include "data/BinaryFile.hpp"

#include "util/Error.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

namespace kw {

namespace {

// A regular file not over maxBytes, opened at its end: its size is where it stands.
std::ifstream openWhole(const std::filesystem::path& path, std::uintmax_t maxBytes, std::streamsize& size)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        throw Error(ErrorCategory::Io, path.string() + ": cannot open (" + (ec ? ec.message() : "no such file") + ")");
    if (!std::filesystem::is_regular_file(status))
        throw Error(ErrorCategory::Io, path.string() + ": not a regular file");
    const std::uintmax_t fileSize = std::filesystem::file_size(path, ec);
    if (!ec && fileSize > maxBytes)
        throw Error(ErrorCategory::Io,
                    path.string() + ": the file is " + std::to_string(fileSize) + " bytes, more than the "
                        + std::to_string(maxBytes) + " bytes expected");
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        throw Error(ErrorCategory::Io, path.string() + ": cannot open (" + std::strerror(errno) + ")");
    size = in.tellg();
    if (size < 0 || std::uintmax_t(size) > maxBytes)
        throw Error(ErrorCategory::Io,
                    path.string() + ": cannot tell its size, or it grew past " + std::to_string(maxBytes) + " bytes");
    return in;
}

std::size_t wholeElements(const std::filesystem::path& path, std::size_t bytes, DType dtype)
{
    if (bytes % sizeOf(dtype) != 0)
        throw Error(ErrorCategory::Io,
                    path.string() + ": " + std::to_string(bytes) + " bytes is not a whole number of " + toString(dtype)
                        + " elements (" + std::to_string(sizeOf(dtype)) + " bytes each)");
    return bytes / sizeOf(dtype);
}

} // namespace

HostBytes BinaryFile::readAll(const std::filesystem::path& path, std::uintmax_t maxBytes)
{
    std::streamsize size = 0;
    std::ifstream in = openWhole(path, maxBytes, size);
    in.seekg(0);
    HostBytes bytes(static_cast<std::size_t>(size)); // not zeroed: read over whole
    if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size))
        throw Error(ErrorCategory::Io, path.string() + ": read failed");
    return bytes;
}

void BinaryFile::writeAll(const std::filesystem::path& path, std::span<const std::byte> bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw Error(ErrorCategory::Io, path.string() + ": cannot create (" + std::strerror(errno) + ")");
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
        throw Error(ErrorCategory::Io, path.string() + ": write failed");
}

HostBuffer BinaryFile::read(const std::filesystem::path& path, DType dtype, std::uintmax_t maxBytes)
{
    HostBytes bytes = readAll(path, maxBytes);
    wholeElements(path, bytes.size(), dtype);
    return HostBuffer(dtype, std::move(bytes));
}

std::size_t BinaryFile::elementCount(const std::filesystem::path& path, DType dtype, std::uintmax_t maxBytes)
{
    std::streamsize size = 0;
    openWhole(path, maxBytes, size);
    return wholeElements(path, static_cast<std::size_t>(size), dtype);
}

void BinaryFile::write(const std::filesystem::path& path, const HostBuffer& data) { writeAll(path, data.bytes()); }

} // namespace kw
