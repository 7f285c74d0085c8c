#pragma once
// How deeply a JSON text nests arrays and objects, found in one pass over the text
// (strings skipped) before any parser recurses into it.
#include <cstddef>
#include <string_view>

namespace kw {

// Documents and protocol messages nest a few levels; this bounds the recursion of
// everything that walks a parsed value (dump, comparisons, the document reader).
inline constexpr std::size_t kMaxJsonDepth = 128;

// The deepest nesting in `text`, counting up to `limit + 1` at most.
std::size_t jsonNestingDepth(std::string_view text, std::size_t limit = kMaxJsonDepth);

} // namespace kw
