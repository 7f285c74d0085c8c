#include "compile/PchLog.hpp"

#include <string_view>

namespace kw {

std::string PchLog::take(std::string& log)
{
    if (log.find("precompiled header file") == std::string::npos)
        return {};
    std::string kept, what;
    bool dropBlank = false; // NVRTC follows each of its lines with an empty one
    for (std::size_t at = 0; at < log.size();) {
        std::size_t end = log.find('\n', at);
        end = end == std::string::npos ? log.size() : end + 1;
        const std::string_view line(log.data() + at, end - at);
        at = end;
        const bool used = line.find(": using precompiled header file \"") != std::string_view::npos;
        const bool created = line.find(": creating precompiled header file \"") != std::string_view::npos;
        if (used || created) {
            if (used || what.empty())
                what = used ? "used" : "created";
            dropBlank = true;
            continue;
        }
        if (dropBlank && line.find_first_not_of(" \t\r\n") == std::string_view::npos) {
            dropBlank = false;
            continue;
        }
        dropBlank = false;
        kept.append(line);
    }
    log = std::move(kept);
    return what;
}

} // namespace kw
