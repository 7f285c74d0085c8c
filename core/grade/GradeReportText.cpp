#include "grade/GradeReportText.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kw::grade {

std::string GradeReportText::writer(const ElementWriter& w)
{
    if (!w.found)
        return w.note;
    std::string text = fmt::format("written by block ({},{},{}) thread ({},{},{}) (warp {} lane {})", w.block[0],
                                   w.block[1], w.block[2], w.thread[0], w.thread[1], w.thread[2], w.warp, w.lane);
    if (w.line > 0)
        text += fmt::format(" at {}:{}", w.file, w.line);
    if (!w.step.empty())
        text += fmt::format(" in step {}", w.step);
    return text;
}

std::string GradeReportText::format(const GradeReport& report)
{
    // The secret seed reproduces the run's inputs (--seed).
    std::string out = fmt::format("{} on {} (secret seed {})\n", report.exercise, report.device, report.secretSeed);
    std::size_t total = 0, passed = 0;
    for (const SolutionReport& s : report.solutions) {
        std::size_t nameWidth = 4, sizeWidth = 4;
        for (const CaseOutcome& c : s.cases) {
            nameWidth = std::max(nameWidth, c.name.size());
            sizeWidth = std::max(sizeWidth, c.size.size());
        }
        out += fmt::format("\n{}\n", s.solution);
        out += fmt::format("  {:<{}}  {:<{}}  {:<13}  {:>9}  {}\n", "case", nameWidth, "size", sizeWidth, "result",
                           "time", "counters");
        for (const CaseOutcome& c : s.cases) {
            std::string counters;
            for (const GoalResult& g : c.goals)
                counters += (counters.empty() ? "" : "; ") + g.text + (g.met ? "" : " MISSED");
            out += fmt::format("  {:<{}}  {:<{}}  {:<13}  {:>7.0f}ms  {}\n", c.name, nameWidth, c.size, sizeWidth,
                               CaseOutcome::toString(c.verdict), c.ms, counters);
        }
        for (const CaseOutcome& c : s.cases) {
            if (c.passed())
                continue;
            out += fmt::format("  {}: {}\n", c.name, c.message);
            if (c.wrong)
                out += fmt::format("    {}[{}]: {}\n", c.wrong->buffer, c.wrong->index, writer(c.wrong->writer));
        }
        out += fmt::format("  {}/{} cases passed ({:.1f} s)\n", s.passed(), s.cases.size(), s.ms / 1000);
        total += s.cases.size();
        passed += s.passed();
    }
    if (!report.goalsGraded)
        out += "\nGoals on the counters are graded on the simulator only (--device sim); not graded here.\n";
    if (report.solutions.size() > 1)
        out += fmt::format("\nTotal: {}/{} cases passed over {} solutions\n", passed, total, report.solutions.size());
    return out;
}

} // namespace kw::grade
