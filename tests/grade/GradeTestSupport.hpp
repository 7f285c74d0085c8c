#pragma once
// Shared by the grading tests: the shipped exercises and their solutions in
// tests/data/grade/<exercise>/ (reference.cu passes every case, wrong.cu fails the case
// expect.json names, at the line it names).
#include "grade/ExerciseReader.hpp"
#include "grade/Grader.hpp"
#include "support/TextFile.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace kw::test {

inline std::vector<std::string> exerciseNames()
{
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(KW_EXERCISES_DIR))
        if (e.path().extension() == ".kwx")
            names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

inline std::filesystem::path exercisePath(const std::string& name)
{
    return std::filesystem::path(KW_EXERCISES_DIR) / (name + ".kwx");
}

inline std::filesystem::path solutionDir(const std::string& name)
{
    return std::filesystem::path(KW_TEST_DATA_DIR) / "grade" / name;
}

inline kw::grade::Solution solution(const std::filesystem::path& path)
{
    return {path.filename().string(), readTextFile(path), path.filename().string()};
}

inline nlohmann::json expectations(const std::string& name)
{
    return nlohmann::json::parse(readTextFile(solutionDir(name) / "expect.json"));
}

} // namespace kw::test
