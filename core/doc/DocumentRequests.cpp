#include "doc/DocumentRequests.hpp"

#include "compile/SourceLexer.hpp"
#include "compile/SourceReadings.hpp"

#include <set>
#include <utility>

namespace kw {

namespace {

void addOptions(const CompileOptions& o, std::vector<DocumentRequest>& out)
{
    const CompileOptions defaults;
    auto option = [&](std::string field, std::string value) {
        out.push_back({DocumentRequest::Kind::Option, std::move(field), std::move(value)});
    };
    if (!o.arch.empty())
        option("options.arch", o.arch);
    if (o.std != defaults.std)
        option("options.std", o.std);
    if (o.lineInfo != defaults.lineInfo)
        option("options.lineinfo", o.lineInfo ? "true" : "false");
    if (o.deviceDebug)
        option("options.debug", "-G");
    if (o.fastMath)
        option("options.fast_math", "--use_fast_math");
    if (o.tagPrintf != defaults.tagPrintf)
        option("options.tag_printf", o.tagPrintf ? "true" : "false");
    for (const auto& [name, value] : o.defines)
        option("options.defines", value.empty() ? "-D" + name : "-D" + name + "=" + value);
    for (std::size_t i = 0; i < o.extra.size(); ++i)
        option("options.extra[" + std::to_string(i) + "]", o.extra[i]);
    for (std::size_t i = 0; i < o.includeDirs.size(); ++i)
        out.push_back(
            {DocumentRequest::Kind::File, "options.include_dirs[" + std::to_string(i) + "]", o.includeDirs[i]});
}

// The text of each #include line of the source, with its splices joined, under every
// reading the preprocessor may make of it (a line spliced with CR LF, a trigraph '#').
void addIncludes(const std::string& source, std::vector<DocumentRequest>& out)
{
    std::set<std::pair<int, std::string>> seen;
    for (const std::string& reading : SourceReadings::of(source))
        for (const auto& t : lexSource(reading)) {
            if (t.kind != SourceToken::Kind::Directive)
                continue;
            std::string text(t.text);
            const auto p = text.find("include");
            const auto import = text.find("import");
            if (p == std::string::npos && import == std::string::npos)
                continue;
            while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\n'))
                text.pop_back();
            if (seen.emplace(t.line, text).second)
                out.push_back({DocumentRequest::Kind::File, "line " + std::to_string(t.line), text});
        }
}

// Each image of the description, `![alt](path)` (the window shows only those inside the
// document's folder, but the user is told of every one).
void addImages(const std::string& description, std::vector<DocumentRequest>& out)
{
    for (std::size_t at = description.find("!["); at != std::string::npos; at = description.find("![", at + 2)) {
        const std::size_t close = description.find("](", at + 2);
        const std::size_t end = close == std::string::npos ? close : description.find(')', close + 2);
        if (end == std::string::npos || description.find('\n', at) < end)
            continue;
        std::string target = description.substr(close + 2, end - close - 2);
        if (const std::size_t title = target.find(" \""); title != std::string::npos)
            target.resize(title); // ![alt](path "title")
        if (!target.empty())
            out.push_back({DocumentRequest::Kind::File, "description image", target});
    }
}

} // namespace

std::vector<DocumentRequest> documentRequests(const Document& doc)
{
    std::vector<DocumentRequest> out;
    if (!doc.sourceFile.empty())
        out.push_back({DocumentRequest::Kind::File, "source_file", doc.sourceFile});
    addOptions(doc.options, out);
    addIncludes(doc.source, out);
    addImages(doc.description, out);
    for (std::size_t b = 0; b < doc.buffers.size(); ++b)
        if (doc.buffers[b].init.kind == Initialiser::Kind::File)
            out.push_back({DocumentRequest::Kind::File, "buffers[" + std::to_string(b) + "].init.path",
                           doc.buffers[b].init.file});
    return out;
}

} // namespace kw
