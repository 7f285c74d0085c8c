#include "grade/GradeReportJson.hpp"

#include <cmath>

namespace kw::grade {
namespace {

// JSON has no NaN or infinity: those travel as strings.
nlohmann::json number(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

} // namespace

nlohmann::json GradeReportJson::toJson(const GradeReport& report)
{
    using nlohmann::json;
    json solutions = json::array();
    for (const SolutionReport& s : report.solutions) {
        json cases = json::array();
        for (const CaseOutcome& c : s.cases) {
            json jc = {{"name", c.name},       {"size", c.size}, {"result", CaseOutcome::toString(c.verdict)},
                       {"passed", c.passed()}, {"ms", c.ms},     {"instructions", c.instructions}};
            if (!c.message.empty())
                jc["message"] = c.message;
            json goals = json::array();
            for (const GoalResult& g : c.goals)
                goals.push_back({{"metric", g.metric}, {"value", g.value}, {"met", g.met}, {"text", g.text}});
            jc["goals"] = goals;
            if (!c.inputsModified.empty())
                jc["inputs_modified"] = c.inputsModified;
            if (c.wrong) {
                const WrongElement& w = *c.wrong;
                json jw = {{"buffer", w.buffer},
                           {"index", w.index},
                           {"expected", number(w.expected)},
                           {"got", number(w.got)},
                           {"never_written", w.unwritten},
                           {"wrong", w.wrong},
                           {"checked", w.checked},
                           {"comparison", w.comparison}};
                if (w.writer.found)
                    jw["writer"] = {{"block", {w.writer.block[0], w.writer.block[1], w.writer.block[2]}},
                                    {"thread", {w.writer.thread[0], w.writer.thread[1], w.writer.thread[2]}},
                                    {"warp", w.writer.warp},
                                    {"lane", w.writer.lane},
                                    {"file", w.writer.file},
                                    {"line", w.writer.line},
                                    {"step", w.writer.step}};
                else
                    jw["writer_note"] = w.writer.note;
                jc["first_wrong"] = jw;
            }
            cases.push_back(jc);
        }
        solutions.push_back({{"solution", s.solution},
                             {"passed", s.passed()},
                             {"cases_total", s.cases.size()},
                             {"ms", s.ms},
                             {"cases", cases}});
    }
    return {{"exercise", report.exercise},
            {"path", report.exercisePath},
            {"device", report.device},
            {"secret_seed", report.secretSeed},
            {"goals_graded", report.goalsGraded},
            {"passed", report.allPassed()},
            {"solutions", solutions}};
}

} // namespace kw::grade
