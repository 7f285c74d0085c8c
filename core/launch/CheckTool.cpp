#include "launch/CheckTool.hpp"

namespace kw {

namespace {

constexpr struct {
    CheckTool tool;
    const char* name;
} kTools[] = {{CheckTool::None, "none"},
              {CheckTool::Memcheck, "memcheck"},
              {CheckTool::Racecheck, "racecheck"},
              {CheckTool::Initcheck, "initcheck"},
              {CheckTool::Synccheck, "synccheck"}};

} // namespace

const char* toString(CheckTool tool)
{
    for (const auto& t : kTools)
        if (t.tool == tool)
            return t.name;
    return "none";
}

std::optional<CheckTool> parseCheckTool(std::string_view s)
{
    for (const auto& t : kTools)
        if (s == t.name)
            return t.tool;
    return std::nullopt;
}

} // namespace kw
