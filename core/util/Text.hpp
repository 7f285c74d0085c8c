#pragma once
// Small text helpers every reader of logs, PTX and sources needs, in one place.
#include <string_view>
#include <vector>

namespace kw {

// `s` without leading and trailing white space (std::isspace in the C locale).
std::string_view trim(std::string_view s);

// The lines of `s`, split at '\n', each without a trailing '\r'. A text of n newlines
// has n + 1 lines, as an editor counts them: "a\n" is {"a", ""}, "" is {""}.
std::vector<std::string_view> splitLines(std::string_view s);

} // namespace kw
