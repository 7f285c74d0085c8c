#pragma once
// The shipped samples as tests read them: their names and their JSON.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kw::test {

// A sample's document, e.g. sampleDocument("add_vectors.kwb").
inline nlohmann::json sampleDocument(const std::string& fileName)
{
    std::ifstream in(std::string(KW_SAMPLES_DIR) + "/" + fileName);
    std::stringstream s;
    s << in.rdbuf();
    return nlohmann::json::parse(s.str());
}

// Every sample's name without ".kwb", sorted.
inline std::vector<std::string> sampleStems()
{
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(KW_SAMPLES_DIR))
        if (e.path().extension() == ".kwb")
            names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace kw::test
