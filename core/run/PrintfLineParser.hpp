#pragma once
// Splits captured device printf output into lines tagged with the block and
// thread that printed them (see compile/PrintfTagger.hpp).
#include "launch/RunResult.hpp"

#include <string_view>

namespace kw {

class PrintfLineParser {
public:
    // A record starts at a tag ("\x1e" bx,by,bz ";" tx,ty,tz "\x1f") and ends at a
    // newline or at the next tag; text without a tag becomes untagged lines.
    // An unterminated last line is kept. `raw` is the text with tags removed.
    // Does not set `truncated` (the runner knows the FIFO size).
    static PrintfOutput parse(std::string_view captured);
};

} // namespace kw
