#pragma once
// Which way a buffer's data flows across a launch: read by the kernel, written, or both.
#include <optional>
#include <string_view>

namespace kw {

enum class Direction { In, Out, InOut };
const char* toString(Direction d); // "in", "out", "inout"
std::optional<Direction> parseDirection(std::string_view s);

} // namespace kw
