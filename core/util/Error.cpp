#include "util/Error.hpp"

namespace kw {

const char* toString(ErrorCategory category)
{
    switch (category) {
    case ErrorCategory::Usage: return "usage";
    case ErrorCategory::Document: return "document";
    case ErrorCategory::Expression: return "expression";
    case ErrorCategory::Io: return "io";
    case ErrorCategory::Nvrtc: return "nvrtc";
    case ErrorCategory::Driver: return "driver";
    case ErrorCategory::NoDevice: return "no-device";
    case ErrorCategory::Limit: return "limit";
    case ErrorCategory::Fault: return "fault";
    case ErrorCategory::Simulator: return "simulator";
    case ErrorCategory::Protocol: return "protocol";
    case ErrorCategory::Untrusted: return "untrusted";
    case ErrorCategory::Internal: return "internal";
    }
    return "unknown";
}

static std::string decorate(const std::string& message, const std::optional<std::string>& path,
                            const std::optional<int>& line)
{
    if (!path)
        return message;
    std::string where = *path;
    if (line)
        where += ":" + std::to_string(*line);
    return where + ": " + message;
}

Error::Error(ErrorCategory category, std::string message, std::optional<std::string> path, std::optional<int> line)
    : std::runtime_error(decorate(message, path, line))
    , category_(category)
    , path_(std::move(path))
    , line_(line)
{
}

} // namespace kw
