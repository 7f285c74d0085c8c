#include "run/SanitizerLog.hpp"
#include "util/Text.hpp"

#include <charconv>

namespace kw {

namespace {

// The number right before `word` in `line` ("(257 errors" -> 257).
std::optional<std::uint64_t> numberBefore(std::string_view line, std::string_view word)
{
    const std::size_t at = line.find(word);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::size_t end = at;
    while (end > 0 && line[end - 1] == ' ')
        --end;
    std::size_t begin = end;
    while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9')
        --begin;
    std::uint64_t v = 0;
    if (begin == end || std::from_chars(line.data() + begin, line.data() + end, v).ec != std::errc())
        return std::nullopt;
    return v;
}

} // namespace

SanitizerLog SanitizerLog::parse(std::string_view text)
{
    SanitizerLog log;
    constexpr std::string_view kPrefix = "=========";
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (line.substr(0, kPrefix.size()) != kPrefix)
            continue;
        line = trim(line.substr(kPrefix.size()));
        if (line.empty() || line == "COMPUTE-SANITIZER")
            continue;
        if (line.find("SUMMARY:") != std::string_view::npos) {
            // "ERROR SUMMARY: 65 errors", "RACECHECK SUMMARY: ... (257 errors, 0 warnings)"
            if (auto n = numberBefore(line, "error"))
                log.errors = *n;
            continue;
        }
        if (log.firstMessage.empty())
            log.firstMessage = std::string(line);
    }
    return log;
}

} // namespace kw
