#pragma once
// Grades solutions of an exercise on one backend: every case runs the reference and
// the solution on the same backend, from the same inputs (the case's seed mixed with the
// run's secret seed), each case on buffers of its own. An output of direction out starts
// filled with a sentinel, so an element never written is told apart from a wrong one;
// the inputs are read back and must be unchanged. On the simulator the solution's run is
// counted (docs/profile.md) for the goals and the instruction limit, and the first wrong
// element of a failed case is traced to the lane, block and line that wrote it.
#include "grade/Exercise.hpp"
#include "grade/GradeReport.hpp"
#include "launch/RunResult.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kw {
class Backend;
class Compiler;
} // namespace kw

namespace kw::grade {

struct Solution {
    std::string label;      // its file name as given, or "starter"
    std::string source;     // the kernel source
    std::string sourceName; // the name its lines are reported under
};

class Grader {
public:
    // `simulator`: the backend counts (goals, instruction limit, writers).
    Grader(const Exercise& exercise, Backend& backend, Compiler& compiler, bool simulator, std::uint64_t secretSeed);

    // Told of each case as it finishes (solution index, the outcome).
    void onCase(std::function<void(std::size_t, const CaseOutcome&)> callback) { onCase_ = std::move(callback); }

    GradeReport grade(const std::vector<Solution>& solutions);
    SolutionReport gradeOne(const Solution& solution);

    // The value an output of `dtype` is filled with before a launch.
    static double sentinel(DType dtype);
    // The document a case runs, with `source` as its kernel (checks removed, inputs read
    // back, outputs filled with the sentinel, no warm-up or repeats).
    Document caseDocument(const GradeCase& gradeCase, const std::string& source, const std::string& sourceName) const;
    // A random secret seed (std::random_device).
    static std::uint64_t randomSeed();

private:
    CaseOutcome gradeCase(const GradeCase& gradeCase, const Solution& solution);
    const RunResult& reference(const GradeCase& gradeCase);
    RunResult runDocument(const Document& doc, bool profile);
    static std::uint64_t threadsLaunched(const Document& doc, const RunResult& r);
    // `expected` null: an expression reference, evaluated as the run's checks.
    std::optional<WrongElement> firstWrong(const Document& doc, const RunResult& got, const RunResult* expected) const;
    std::vector<std::string> inputsChanged(const Document& doc, const RunResult& got, const RunResult* expected) const;

    const Exercise& exercise_;
    Backend& backend_;
    Compiler& compiler_;
    bool simulator_;
    std::uint64_t secret_;
    std::map<std::string, RunResult> references_; // by case name, for every solution of this run
    std::function<void(std::size_t, const CaseOutcome&)> onCase_;
    std::size_t solutionIndex_ = 0;
};

} // namespace kw::grade
