#pragma once
// Formats one device printf call the way the CUDA runtime does: arguments are read
// from the packed argument buffer, each aligned to its own size; %f takes a double.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace kw::sim {

// readBytes(address, size, out): false when the address cannot be read.
using DeviceReader = std::function<bool(std::uint64_t, std::uint32_t, void*)>;

// A printf field's width and precision are clamped to this many characters.
inline constexpr std::size_t kMaxPrintfField = 500;

// Returns the text, or nullopt when the format string itself cannot be read.
// argCount receives the number of arguments consumed.
std::optional<std::string> formatDevicePrintf(std::uint64_t format, std::uint64_t args, const DeviceReader& read,
                                              int& argCount);

// Reads a NUL-terminated device string (at most `limit` bytes).
std::optional<std::string> readDeviceString(std::uint64_t address, const DeviceReader& read,
                                            std::size_t limit = 1 << 16);

} // namespace kw::sim
