#pragma once
// Rewrites device printf calls so every line they print starts with a tag
// naming the block and thread that printed it (parsed back by PrintfLineParser).
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kw {

// The tag printed before the user's text: "\x1e" bx,by,bz ";" tx,ty,tz "\x1f".
inline constexpr char kPrintfTagStart = '\x1e';
inline constexpr char kPrintfTagEnd = '\x1f';

struct TaggedSource {
    std::string text; // what NVRTC compiles; the user's source when nothing was tagged
    int taggedCalls = 0;
    int untaggedCalls = 0; // printf calls whose format is not a string literal

    // Maps a 1-based column reported on `line` of the tagged text back to the
    // user's source; a column inside inserted text maps to the insertion point.
    int userColumn(int line, int taggedColumn) const;

    // For each user line: (1-based user column where text was inserted, length).
    std::map<int, std::vector<std::pair<int, int>>> insertions;
};

class PrintfTagger {
public:
    // `sourceName` is repeated in a #line directive so diagnostics and __FILE__
    // keep naming the user's file and line numbers stay those of the user.
    static TaggedSource tag(std::string_view source, std::string_view sourceName);
};

} // namespace kw
