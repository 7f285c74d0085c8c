#include "grade/GradeCommand.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "data/BinaryFile.hpp"
#include "doc/DocumentReader.hpp"
#include "grade/ExerciseReader.hpp"
#include "grade/GradeReportJson.hpp"
#include "grade/GradeReportText.hpp"
#include "grade/Grader.hpp"
#include "grade/JunitWriter.hpp"
#include "run/DeviceSelector.hpp"
#include "run/ExitCode.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace kw::grade {
namespace {

std::string readText(const std::string& path)
{
    const HostBytes bytes = BinaryFile::readAll(path);
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

Solution loadSolution(const std::string& path, Trust trust)
{
    Solution s;
    s.label = path;
    const std::filesystem::path p(path);
    if (p.extension() == ".kwb") {
        // A document saved from the exercise: its kernel source is the solution.
        const Document doc = DocumentReader::readFile(p, trust);
        s.source = doc.source;
        s.sourceName = doc.sourceFile.empty() ? p.stem().string() + ".cu" : doc.sourceFile;
    } else {
        s.source = readText(path);
        s.sourceName = p.filename().string();
    }
    return s;
}

} // namespace

GradeCommand::GradeCommand(GradeCommandOptions options, std::FILE* out)
    : options_(std::move(options))
    , out_(out)
{
}

int GradeCommand::execute()
{
    const Trust trust = options_.trust ? Trust::Trusted : Trust::Untrusted;
    const Exercise exercise = ExerciseReader::readFile(options_.exercise, trust);
    std::vector<Solution> solutions;
    for (const auto& path : options_.solutions)
        solutions.push_back(loadSolution(path, trust));
    if (solutions.empty())
        solutions.push_back({"starter", exercise.document.source, exercise.document.sourceName()});

    const DeviceSpec spec = DeviceSelector::parse(options_.device);
    const std::unique_ptr<Backend> backend = DeviceSelector::open(spec, nullptr);
    Compiler compiler(ProgramCache::openDefault());
    Grader grader(exercise, *backend, compiler, spec.kind == DeviceSpec::Kind::Sim,
                  options_.seed ? *options_.seed : Grader::randomSeed());
    const GradeReport report = grader.grade(solutions);
    if (options_.json)
        fmt::print(out_, "{}\n", GradeReportJson::toJson(report).dump(2));
    else
        fmt::print(out_, "{}", GradeReportText::format(report));
    if (!options_.junit.empty())
        JunitWriter::write(report, options_.junit);
    return report.allPassed() ? ExitCode::Ok : ExitCode::CheckFailed;
}

} // namespace kw::grade
