#pragma once
// Test data files read whole, as text.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kw::test {

inline std::string readTextFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace kw::test
