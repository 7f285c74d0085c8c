#pragma once
// Loads an exercise (*.kwx, JSON; docs/exercises.md). Every failure is one
// kw::Error(Document) naming the field and why, as DocumentReader's do; the nested
// document's own errors are named under "document.".
#include "grade/Exercise.hpp"
#include "util/Trust.hpp"

#include <filesystem>
#include <string>

namespace kw::grade {

class ExerciseReader {
public:
    static Exercise readFile(const std::filesystem::path& path, Trust trust = Trust::Untrusted);
    static Exercise readString(const std::string& json, const std::filesystem::path& path = {},
                               Trust trust = Trust::Untrusted);
    // Whether a file's text is an exercise rather than a document (its "format").
    static bool isExercise(const std::string& json);

    static constexpr const char* kFormat = "kernel-workbench-exercise";
    static constexpr int kVersion = 1;
};

} // namespace kw::grade
