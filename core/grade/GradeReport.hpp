#pragma once
// What grading found: per solution, per case, the verdict, the time, the counters
// against the goals, and for a wrong output its first wrong element and who wrote it.
#include "grade/CounterGoal.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::grade {

// Who wrote an output element (the simulator, by a watch on it): the last write.
struct ElementWriter {
    bool found = false; // false: no lane wrote it (or the location is not known)
    std::string note;   // why not known, or "on a GPU: ..."
    std::uint64_t block[3] = {0, 0, 0};
    std::uint64_t thread[3] = {0, 0, 0};
    std::uint32_t lane = 0, warp = 0;
    std::string file;
    std::uint32_t line = 0;
    std::string step; // a document of steps: the launch step that wrote it
};

struct WrongElement {
    std::string buffer;
    std::size_t index = 0;
    double expected = 0, got = 0;
    bool unwritten = false; // still the sentinel: never written
    std::size_t wrong = 0, checked = 0;
    std::string comparison; // how it was compared
    ElementWriter writer;
};

struct CaseOutcome {
    enum class Verdict { Pass, Wrong, GoalMissed, Limit, Fault, CompileError, Error };
    std::string name;
    std::string size;
    Verdict verdict = Verdict::Pass;
    std::string message; // one line: why it failed
    double ms = 0;       // the solution's run of this case, wall time
    std::uint64_t instructions = 0;
    std::vector<GoalResult> goals;
    std::optional<WrongElement> wrong;
    std::vector<std::string> inputsModified; // input buffers the solution changed
    bool passed() const { return verdict == Verdict::Pass; }
    static const char* toString(Verdict v);
};

struct SolutionReport {
    std::string solution; // its file, or "starter"
    std::vector<CaseOutcome> cases;
    double ms = 0;
    std::size_t passed() const;
    bool allPassed() const { return passed() == cases.size(); }
};

struct GradeReport {
    std::string exercise; // its title
    std::string exercisePath;
    std::string device;
    std::uint64_t secretSeed = 0;
    bool goalsGraded = false; // the simulator counted; a GPU does not
    std::vector<SolutionReport> solutions;
    bool allPassed() const;
};

} // namespace kw::grade
