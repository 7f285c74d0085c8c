#include "run/PrintfLineParser.hpp"

#include "compile/PrintfTagger.hpp"

#include <charconv>
#include <optional>

namespace kw {

namespace {

struct Tag {
    Dim3 block, thread;
    std::size_t length = 0; // bytes of the tag itself
};

// Parses "\x1e1,2,3;4,5,6\x1f" at the start of `s`.
std::optional<Tag> readTag(std::string_view s)
{
    if (s.empty() || s[0] != kPrintfTagStart)
        return std::nullopt;
    std::size_t end = s.find(kPrintfTagEnd);
    if (end == std::string_view::npos)
        return std::nullopt;
    unsigned v[6] = {};
    const char* p = s.data() + 1;
    const char* stop = s.data() + end;
    for (int i = 0; i < 6; ++i) {
        auto [next, ec] = std::from_chars(p, stop, v[i]);
        if (ec != std::errc())
            return std::nullopt;
        p = next;
        char expected = i == 5 ? '\0' : i == 2 ? ';' : ',';
        if (i < 5) {
            if (p == stop || *p != expected)
                return std::nullopt;
            ++p;
        }
    }
    if (p != stop)
        return std::nullopt;
    Tag t;
    t.block = {v[0], v[1], v[2]};
    t.thread = {v[3], v[4], v[5]};
    t.length = end + 1;
    return t;
}

} // namespace

PrintfOutput PrintfLineParser::parse(std::string_view captured)
{
    PrintfOutput out;
    std::size_t pos = 0;
    while (pos < captured.size()) {
        std::optional<Tag> tag = readTag(captured.substr(pos));
        if (tag)
            pos += tag->length;
        // The record runs to a newline or the next tag start, whichever is first.
        std::size_t stop = captured.find_first_of(std::string_view("\n\x1e", 2), pos);
        // A tag start at `pos` that did not parse is kept as text.
        if (stop == pos && captured[pos] == kPrintfTagStart)
            stop = captured.find_first_of(std::string_view("\n\x1e", 2), pos + 1);
        bool newline = stop != std::string_view::npos && captured[stop] == '\n';
        std::size_t textEnd = stop == std::string_view::npos ? captured.size() : stop;
        std::string text(captured.substr(pos, textEnd - pos));
        out.raw += text;
        if (newline)
            out.raw += '\n';
        if (tag)
            out.lines.push_back({tag->block, tag->thread, std::move(text), {}});
        else if (!text.empty() || newline)
            out.untagged.push_back(std::move(text));
        pos = newline ? stop + 1 : textEnd;
    }
    return out;
}

} // namespace kw
