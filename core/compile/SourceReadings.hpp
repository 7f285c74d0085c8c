#pragma once
// The source as the preprocessor's first phases may read it: trigraphs replaced or
// not (NVRTC honours them up to -std=c++14), a backslash followed by spaces before the
// line end taken as a splice or not, a lone CR taken as a line end or not. Checks of
// directives (IncludeGate, the trust bar) look at every reading, so a directive that
// any reading makes is seen. Each reading keeps the source's line numbers: the line
// ends a splice removes come back after its logical line.
#include <string>
#include <string_view>
#include <vector>

namespace kw {

class SourceReadings {
public:
    // The distinct readings, the plainest (no trigraphs, strict splices) first.
    static std::vector<std::string> of(std::string_view text);

    // One reading: trigraphs replaced when `trigraphs`; with `looseSplices`, a backslash,
    // spaces or tabs and a line end splice, and a lone CR ends a line.
    static std::string read(std::string_view text, bool trigraphs, bool looseSplices);
};

} // namespace kw
