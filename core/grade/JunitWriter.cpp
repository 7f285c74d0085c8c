#include "grade/JunitWriter.hpp"

#include "grade/GradeReportText.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>

#include <sstream>

namespace kw::grade {
namespace {

bool isError(CaseOutcome::Verdict v)
{
    return v == CaseOutcome::Verdict::CompileError || v == CaseOutcome::Verdict::Fault
        || v == CaseOutcome::Verdict::Error;
}

std::string seconds(double ms) { return fmt::format("{:.3f}", ms / 1000); }

} // namespace

std::string JunitWriter::toXml(const GradeReport& report)
{
    pugi::xml_document xml;
    auto decl = xml.append_child(pugi::node_declaration);
    decl.append_attribute("version") = "1.0";
    decl.append_attribute("encoding") = "UTF-8";
    auto suites = xml.append_child("testsuites");
    suites.append_attribute("name") = report.exercise.c_str();
    std::size_t tests = 0, failures = 0, errors = 0;
    double ms = 0;
    for (const SolutionReport& s : report.solutions) {
        auto suite = suites.append_child("testsuite");
        std::size_t f = 0, e = 0;
        for (const CaseOutcome& c : s.cases) {
            if (isError(c.verdict))
                ++e;
            else if (!c.passed())
                ++f;
        }
        suite.append_attribute("name") = s.solution.c_str();
        suite.append_attribute("tests") = std::to_string(s.cases.size()).c_str();
        suite.append_attribute("failures") = std::to_string(f).c_str();
        suite.append_attribute("errors") = std::to_string(e).c_str();
        suite.append_attribute("skipped") = "0";
        suite.append_attribute("time") = seconds(s.ms).c_str();
        auto props = suite.append_child("properties");
        auto prop = [&](const char* name, const std::string& value) {
            auto p = props.append_child("property");
            p.append_attribute("name") = name;
            p.append_attribute("value") = value.c_str();
        };
        prop("exercise", report.exercise);
        prop("device", report.device);
        prop("secret_seed", std::to_string(report.secretSeed));
        for (const CaseOutcome& c : s.cases) {
            auto tc = suite.append_child("testcase");
            tc.append_attribute("name") = c.name.c_str();
            tc.append_attribute("classname") = (report.exercise + "." + s.solution).c_str();
            tc.append_attribute("time") = seconds(c.ms).c_str();
            if (c.passed())
                continue;
            auto problem = tc.append_child(isError(c.verdict) ? "error" : "failure");
            problem.append_attribute("message") = c.message.c_str();
            problem.append_attribute("type") = CaseOutcome::toString(c.verdict);
            std::string body = c.message;
            if (c.wrong)
                body += fmt::format("\n{}[{}]: {}", c.wrong->buffer, c.wrong->index,
                                    GradeReportText::writer(c.wrong->writer));
            for (const GoalResult& g : c.goals)
                body += "\n" + g.text + (g.met ? "" : " MISSED");
            problem.text().set(body.c_str());
        }
        tests += s.cases.size();
        failures += f;
        errors += e;
        ms += s.ms;
    }
    suites.append_attribute("tests") = std::to_string(tests).c_str();
    suites.append_attribute("failures") = std::to_string(failures).c_str();
    suites.append_attribute("errors") = std::to_string(errors).c_str();
    suites.append_attribute("time") = seconds(ms).c_str();
    std::ostringstream text;
    xml.save(text, "  ");
    return text.str();
}

void JunitWriter::write(const GradeReport& report, const std::filesystem::path& path)
{
    const std::string xml = toXml(report);
    std::FILE* f = std::fopen(path.string().c_str(), "wb");
    if (!f)
        throw Error(ErrorCategory::Io, "cannot write " + path.string());
    const bool ok = std::fwrite(xml.data(), 1, xml.size(), f) == xml.size();
    if (std::fclose(f) != 0 || !ok)
        throw Error(ErrorCategory::Io, "cannot write " + path.string());
}

} // namespace kw::grade
