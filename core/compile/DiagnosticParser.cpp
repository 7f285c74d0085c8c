#include "compile/DiagnosticParser.hpp"

#include <optional>
#include <regex>
#include <string>

namespace kw {

namespace {

std::vector<std::string> splitLines(std::string_view log)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= log.size()) {
        std::size_t end = log.find('\n', start);
        if (end == std::string_view::npos)
            end = log.size();
        std::string line(log.substr(start, end - start));
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        if (end == log.size())
            break;
        start = end + 1;
    }
    return lines;
}

Severity severityFrom(const std::string& word)
{
    if (word.find("error") != std::string::npos)
        return Severity::Error;
    if (word == "warning")
        return Severity::Warning;
    if (word == "remark")
        return Severity::Remark;
    return Severity::Note;
}

std::string trim(const std::string& s)
{
    std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    std::size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

bool isCaretLine(const std::string& s)
{
    std::size_t caret = s.find('^');
    return caret != std::string::npos && s.find_first_not_of(" \t") == caret && caret == s.rfind('^');
}

// The start of a new diagnostic: "file(line): severity[ #code]: message",
// or one without a location: "nvrtc: error: message" / "error: message".
std::optional<Diagnostic> parseHeader(const std::string& line)
{
    static const std::regex located(
        R"(^(.+)\((\d+)\): (catastrophic error|command-line error|fatal error|error|warning|remark|note)(?: #([0-9]+(?:-[A-Z])?))?: (.*)$)");
    static const std::regex unlocated(R"(^(?:([^\s:]+): )?(error|warning|remark|note): (.*)$)");
    std::smatch m;
    if (std::regex_match(line, m, located)) {
        Diagnostic d;
        d.file = m[1];
        d.line = std::stoi(m[2]);
        d.severity = severityFrom(m[3]);
        d.code = m[4];
        d.message = m[5];
        return d;
    }
    if (std::regex_match(line, m, unlocated)) {
        Diagnostic d;
        d.file = m[1].matched && m[1] != "nvrtc" ? std::string(m[1]) : std::string();
        d.severity = severityFrom(m[2]);
        d.message = m[3];
        return d;
    }
    return std::nullopt;
}

} // namespace

std::vector<Diagnostic> parseNvrtcLog(std::string_view log)
{
    std::vector<Diagnostic> out;
    auto lines = splitLines(log);
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
            d.message += "\n" + trim(lines[j]); // continuation such as "argument types are: (int)"
        if (caret < end) {
            // The echoed source line and the caret line share a two-space indent;
            // tabs are echoed as tabs, so the caret's offset is the byte column.
            std::size_t pos = lines[caret].find('^');
            d.column = pos >= 2 ? static_cast<int>(pos - 2 + 1) : 1;
        }
        std::size_t notesBegin = caret < end ? caret + 1 : i + 1;
        std::string prefix;
        for (std::size_t j = notesBegin; j < end; ++j) {
            std::string note = trim(lines[j]);
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
