#include "compile/PrintfTagger.hpp"

#include "compile/SourceLexer.hpp"

#include <algorithm>

namespace kw {

namespace {

constexpr std::string_view kTagMacro = "KW_PRINTF_TAG ";
constexpr std::string_view kArgsMacro = " KW_PRINTF_TAG_ARGS";

std::string prelude(std::string_view sourceName)
{
    std::string escaped;
    for (char c : sourceName) {
        if (c == '\\' || c == '"')
            escaped += '\\';
        escaped += c;
    }
    return "#define KW_PRINTF_TAG \"\\x1e%u,%u,%u;%u,%u,%u\\x1f\"\n"
           "#define KW_PRINTF_TAG_ARGS ,blockIdx.x,blockIdx.y,blockIdx.z,threadIdx.x,threadIdx.y,threadIdx.z\n"
           "#line 1 \""
        + escaped + "\"\n";
}

struct Insertion {
    std::size_t offset;
    std::string_view text;
    int line, column;
};

} // namespace

int TaggedSource::userColumn(int line, int taggedColumn) const
{
    auto it = insertions.find(line);
    if (it == insertions.end())
        return taggedColumn;
    int shift = 0;
    for (auto [column, length] : it->second) {
        if (taggedColumn < column + shift)
            break;
        if (taggedColumn < column + shift + length)
            return column;
        shift += length;
    }
    return taggedColumn - shift;
}

TaggedSource PrintfTagger::tag(std::string_view source, std::string_view sourceName)
{
    TaggedSource out;
    auto toks = lexSource(source);
    std::vector<Insertion> inserts;
    for (std::size_t i = 0; i + 1 < toks.size(); ++i) {
        const SourceToken& t = toks[i];
        if (t.kind != SourceToken::Kind::Identifier || t.text != "printf" || toks[i + 1].text != "(")
            continue;
        if (i > 0 && (toks[i - 1].text == "." || toks[i - 1].text == "->"))
            continue; // a member named printf
        // The first argument: string literals, possibly with macros between them
        // ("%" PRIu64 "\n"), up to the top-level "," or ")".
        std::size_t b = i + 2, e = b;
        bool literalFormat = b < toks.size() && toks[b].kind == SourceToken::Kind::String;
        while (e < toks.size() && toks[e].text != "," && toks[e].text != ")") {
            if (toks[e].kind != SourceToken::Kind::String && toks[e].kind != SourceToken::Kind::Identifier)
                literalFormat = false;
            ++e;
        }
        // Only plain narrow literals can be prefixed with the narrow tag.
        if (literalFormat)
            for (std::size_t j = b; j < e; ++j)
                if (toks[j].kind == SourceToken::Kind::String && toks[j].text.front() != '"')
                    literalFormat = false;
        if (!literalFormat || e >= toks.size()) {
            ++out.untaggedCalls;
            continue;
        }
        const SourceToken& last = toks[e - 1];
        int lastEndColumn = last.column;
        int lastLine = last.line;
        for (char c : last.text) { // a raw literal may span lines
            if (c == '\n') {
                ++lastLine;
                lastEndColumn = 1;
            } else {
                ++lastEndColumn;
            }
        }
        inserts.push_back({toks[b].offset, kTagMacro, toks[b].line, toks[b].column});
        inserts.push_back({last.offset + last.text.size(), kArgsMacro, lastLine, lastEndColumn});
        ++out.taggedCalls;
        i = e - 1;
    }
    if (inserts.empty()) {
        out.text = std::string(source);
        return out;
    }
    out.text = prelude(sourceName);
    std::size_t pos = 0;
    for (const auto& ins : inserts) {
        out.text.append(source.substr(pos, ins.offset - pos));
        out.text.append(ins.text);
        pos = ins.offset;
        out.insertions[ins.line].emplace_back(ins.column, static_cast<int>(ins.text.size()));
    }
    out.text.append(source.substr(pos));
    for (auto& [line, list] : out.insertions)
        std::sort(list.begin(), list.end());
    return out;
}

} // namespace kw
