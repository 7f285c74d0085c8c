#include "grade/GradeReport.hpp"

#include <algorithm>

namespace kw::grade {

const char* CaseOutcome::toString(Verdict v)
{
    switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Wrong: return "wrong";
    case Verdict::GoalMissed: return "goal missed";
    case Verdict::Limit: return "over limit";
    case Verdict::Fault: return "fault";
    case Verdict::CompileError: return "compile error";
    case Verdict::Error: return "error";
    }
    return "?";
}

std::size_t SolutionReport::passed() const
{
    return std::size_t(std::count_if(cases.begin(), cases.end(), [](const CaseOutcome& c) { return c.passed(); }));
}

bool GradeReport::allPassed() const
{
    return std::all_of(solutions.begin(), solutions.end(), [](const SolutionReport& s) { return s.allPassed(); });
}

} // namespace kw::grade
