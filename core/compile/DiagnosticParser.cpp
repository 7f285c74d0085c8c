#include "compile/DiagnosticParser.hpp"
#include "util/Text.hpp"

#include <charconv>

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace kw {

namespace {

bool isCaretLine(const std::string& s)
{
    std::size_t caret = s.find('^');
    return caret != std::string::npos && s.find_first_not_of(" \t") == caret && caret == s.rfind('^');
}

// "severity[ #code]: message" after a location; false when `rest` is not that.
// Hand-written rather than std::regex: libstdc++'s regex recurses per character
// and NVRTC echoes source lines of any length.
bool parseSeverity(std::string_view rest, Diagnostic& d)
{
    static const std::pair<std::string_view, Severity> words[] = {{"catastrophic error", Severity::Error},
                                                                  {"command-line error", Severity::Error},
                                                                  {"fatal error", Severity::Error},
                                                                  {"error", Severity::Error},
                                                                  {"warning", Severity::Warning},
                                                                  {"remark", Severity::Remark},
                                                                  {"note", Severity::Note}};
    for (const auto& [word, severity] : words) {
        if (rest.substr(0, word.size()) != word)
            continue;
        std::string_view after = rest.substr(word.size());
        std::string code;
        if (after.substr(0, 2) == " #") {
            std::size_t colon = after.find(':');
            if (colon == std::string_view::npos)
                return false;
            code = std::string(after.substr(2, colon - 2));
            if (code.empty() || code.find(' ') != std::string::npos)
                return false;
            after = after.substr(colon);
        }
        if (after.substr(0, 2) != ": ")
            return false;
        d.severity = severity;
        d.code = std::move(code);
        d.message = std::string(after.substr(2));
        return true;
    }
    return false;
}

// The start of a new diagnostic: "file(line): severity[ #code]: message",
// or one without a location: "nvrtc: error: ...", "ptxas fatal   : ...".
std::optional<Diagnostic> parseHeader(const std::string& line)
{
    for (std::size_t p = line.find("): "); p != std::string::npos; p = line.find("): ", p + 1)) {
        std::size_t open = p;
        while (open > 0 && std::isdigit(static_cast<unsigned char>(line[open - 1])))
            --open;
        if (open == p || open < 2 || line[open - 1] != '(')
            continue;
        Diagnostic d;
        if (!parseSeverity(std::string_view(line).substr(p + 3), d))
            continue;
        // A line number too long for an int is not a location NVRTC wrote.
        const auto [end, ec] = std::from_chars(line.data() + open, line.data() + p, d.line);
        if (ec != std::errc() || end != line.data() + p)
            continue;
        d.file = line.substr(0, open - 1);
        return d;
    }
    std::string_view rest = line;
    bool ptxas = false;
    if (rest.substr(0, 7) == "nvrtc: ")
        rest.remove_prefix(7);
    else if (rest.substr(0, 6) == "ptxas ")
        rest.remove_prefix(6), ptxas = true;
    static const std::pair<std::string_view, Severity> words[] = {{"fatal", Severity::Error},
                                                                  {"error", Severity::Error},
                                                                  {"warning", Severity::Warning},
                                                                  {"remark", Severity::Remark},
                                                                  {"note", Severity::Note}};
    for (const auto& [word, severity] : words) {
        if (rest.substr(0, word.size()) != word)
            continue;
        std::size_t colon = rest.find_first_not_of(' ', word.size());
        if (colon == std::string_view::npos || rest[colon] != ':' || rest.substr(colon, 2) != ": ")
            return std::nullopt;
        if (!ptxas && colon != word.size())
            return std::nullopt;
        Diagnostic d;
        d.severity = severity;
        d.message = std::string(rest.substr(colon + 2));
        return d;
    }
    return std::nullopt;
}

} // namespace

std::vector<Diagnostic> parseNvrtcLog(std::string_view log)
{
    std::vector<Diagnostic> out;
    const std::vector<std::string_view> split = splitLines(log);
    const std::vector<std::string> lines(split.begin(), split.end());
    std::size_t i = 0;
    while (i < lines.size()) {
        auto header = parseHeader(lines[i]);
        if (!header) {
            ++i; // summaries, "Compilation terminated.", "Remark: The warnings can be suppressed ..."
            continue;
        }
        Diagnostic d = std::move(*header);
        // The block runs to the next blank line or the next header.
        std::size_t end = i + 1;
        while (end < lines.size() && !trim(lines[end]).empty() && !parseHeader(lines[end]))
            ++end;
        std::size_t caret = end;
        for (std::size_t j = i + 1; j < end; ++j)
            if (isCaretLine(lines[j]) && j > i + 1) {
                caret = j;
                break;
            }
        std::size_t messageEnd = caret < end ? caret - 1 : i + 1;
        for (std::size_t j = i + 1; j < messageEnd; ++j)
            d.message += "\n" + std::string(trim(lines[j])); // continuation such as "argument types are: (int)"
        if (caret < end) {
            // The echoed source line and the caret line share a two-space indent;
            // tabs are echoed as tabs, so the caret's offset is the byte column.
            std::size_t pos = lines[caret].find('^');
            d.column = pos >= 2 ? static_cast<int>(pos - 2 + 1) : 1;
        }
        std::size_t notesBegin = caret < end ? caret + 1 : i + 1;
        std::string prefix;
        for (std::size_t j = notesBegin; j < end; ++j) {
            std::string note = std::string(trim(lines[j]));
            if (note == "detected during:") {
                prefix = "detected during ";
                continue;
            }
            d.notes.push_back(prefix + note);
        }
        out.push_back(std::move(d));
        i = end;
    }
    return out;
}

} // namespace kw
