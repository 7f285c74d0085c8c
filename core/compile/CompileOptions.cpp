#include "compile/CompileOptions.hpp"

namespace kw {

std::vector<std::string> CompileOptions::toNvrtcArgs() const
{
    std::vector<std::string> args;
    if (!arch.empty())
        args.push_back("-arch=" + arch);
    if (!std.empty())
        args.push_back("-std=" + std);
    if (lineInfo)
        args.emplace_back("-lineinfo");
    if (deviceDebug)
        args.emplace_back("-G");
    if (fastMath)
        args.emplace_back("--use_fast_math");
    for (const auto& [name, value] : defines)
        args.push_back(value.empty() ? "-D" + name : "-D" + name + "=" + value);
    for (const auto& dir : includeDirs)
        args.push_back("-I" + dir);
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

} // namespace kw
