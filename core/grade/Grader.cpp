#include "grade/Grader.hpp"

#include "compile/Compiler.hpp"
#include "doc/PreparedRun.hpp"
#include "grade/WriterLocator.hpp"
#include "launch/Backend.hpp"
#include "run/RunEngine.hpp"
#include "util/Elapsed.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <cstring>
#include <random>

namespace kw::grade {
namespace {

const BufferResult* findResult(const RunResult& r, const std::string& name)
{
    for (const auto& b : r.buffers)
        if (b.name == name)
            return &b;
    return nullptr;
}

std::string faultText(const Fault& f)
{
    std::string text = f.message;
    if (!f.file.empty() && f.line > 0 && text.find(fmt::format(":{}", f.line)) == std::string::npos)
        text += fmt::format(" ({}:{})", f.file, f.line);
    return text;
}

std::string compileText(const CompileResult& c, const std::string& sourceName)
{
    for (const auto& d : c.diagnostics)
        if (d.severity == Severity::Error)
            return fmt::format("{}:{}: {}", d.file.empty() ? sourceName : d.file, d.line, d.message);
    return c.log.empty() ? "it does not compile" : c.log.substr(0, c.log.find('\n'));
}

} // namespace

Grader::Grader(const Exercise& exercise, Backend& backend, Compiler& compiler, bool simulator, std::uint64_t secretSeed)
    : exercise_(exercise)
    , backend_(backend)
    , compiler_(compiler)
    , simulator_(simulator)
    , secret_(secretSeed)
{
}

std::uint64_t Grader::randomSeed()
{
    std::random_device device;
    return (std::uint64_t(device()) << 32) ^ device();
}

double Grader::sentinel(DType dtype)
{
    switch (dtype) {
    case DType::I8: return -113;
    case DType::U8: return 0xa5;
    case DType::I16: return -31313;
    case DType::U16: return 0xa5a5;
    case DType::I32:
    case DType::I64: return -1234567891;
    case DType::U32:
    case DType::U64: return 0xa5a5a5a5u;
    case DType::F16: return -65248;   // a half float
    default: return -1.2760588090e38; // about -1.5 * 2^126, rounded to a float and bf16 as it is held
    }
}

Document Grader::caseDocument(const GradeCase& gradeCase, const std::string& source,
                              const std::string& sourceName) const
{
    Document doc = gradeCase.document(exercise_.document, secret_);
    doc.source = source;
    doc.sourceFile = sourceName;
    // An expression reference is the document's checks on the solution's own run.
    doc.checks = exercise_.expressionReference() ? exercise_.referenceChecks() : std::vector<CheckSpec>{};
    doc.run.warmup = 0;
    doc.run.repeats = 0;
    doc.run.timeLimitSeconds = exercise_.limits.wallSeconds;
    for (BufferSpec& b : doc.buffers) {
        if (b.global)
            continue;
        if (b.direction == Direction::In)
            b.direction = Direction::InOut; // read back, to see that it is unchanged
        else if (b.direction == Direction::Out && exercise_.output(b.name)) {
            b.init = Initialiser{};
            b.init.kind = Initialiser::Kind::Fill;
            b.init.value = fmt::format("{:.17g}", sentinel(b.dtype));
        }
    }
    return doc;
}

RunResult Grader::runDocument(const Document& doc, bool profile)
{
    RunEngine engine(compiler_, backend_);
    RunOverrides overrides;
    overrides.repeats = 0;
    overrides.warmup = 0;
    overrides.timeLimitSeconds = exercise_.limits.wallSeconds;
    overrides.profile.enabled = profile && simulator_;
    return engine.run(doc, overrides);
}

const RunResult& Grader::reference(const GradeCase& gradeCase)
{
    auto it = references_.find(gradeCase.name);
    if (it != references_.end())
        return it->second;
    const Document doc = caseDocument(gradeCase, exercise_.referenceSource, "reference.cu");
    RunResult r = runDocument(doc, false);
    if (!r.compile.ok)
        throw Error(ErrorCategory::Document,
                    "the exercise's reference does not compile: " + compileText(r.compile, "reference.cu"));
    if (r.fault)
        throw Error(
            ErrorCategory::Document,
            fmt::format("the exercise's reference faulted in case {}: {}", gradeCase.name, faultText(*r.fault)));
    return references_.emplace(gradeCase.name, std::move(r)).first->second;
}

std::uint64_t Grader::threadsLaunched(const Document& doc, const RunResult& r)
{
    if (!doc.isSequence())
        return r.grid.volume() * r.block.volume();
    std::uint64_t threads = 0;
    for (const StepResult& s : r.steps)
        if (s.kind == "launch")
            threads += s.grid.volume() * s.block.volume() * std::uint64_t(s.runs);
    return threads;
}

CaseOutcome Grader::gradeCase(const GradeCase& gc, const Solution& solution)
{
    CaseOutcome out;
    out.name = gc.name;
    out.size = gc.size();
    const RunResult* expected = nullptr; // none for an expression reference
    try {
        if (!exercise_.expressionReference())
            expected = &reference(gc);
    } catch (const Error& e) {
        out.verdict = CaseOutcome::Verdict::Error;
        out.message = e.what();
        return out;
    }

    const Document doc = caseDocument(gc, solution.source, solution.sourceName);
    RunResult got;
    const auto t0 = SteadyClock::now();
    try {
        got = runDocument(doc, true);
    } catch (const Error& e) {
        out.ms = msSince(t0);
        out.verdict = CaseOutcome::Verdict::Error;
        out.message = e.what();
        return out;
    }
    out.ms = msSince(t0);
    if (!got.compile.ok) {
        out.verdict = CaseOutcome::Verdict::CompileError;
        out.message = compileText(got.compile, solution.sourceName);
        return out;
    }
    if (got.fault) {
        const bool timeout = got.fault->kind == FaultKind::Timeout;
        out.verdict = timeout ? CaseOutcome::Verdict::Limit : CaseOutcome::Verdict::Fault;
        out.message = timeout ? fmt::format("ran past the time limit of {:g} s", exercise_.limits.wallSeconds)
                              : faultText(*got.fault);
        return out;
    }
    if (got.profile)
        out.instructions = got.profile->totals.inst_executed;

    try {
        out.wrong = firstWrong(doc, got, expected);
        out.inputsModified = inputsChanged(doc, got, expected);
    } catch (const Error& e) {
        out.verdict = CaseOutcome::Verdict::Error;
        out.message = e.what();
        return out;
    }
    if (out.wrong) {
        const WrongElement& w = *out.wrong;
        out.verdict = CaseOutcome::Verdict::Wrong;
        out.message = w.unwritten ? fmt::format("{}[{}] was never written (expected {:g}); {} of {} elements wrong",
                                                w.buffer, w.index, w.expected, w.wrong, w.checked)
                                  : fmt::format("{}[{}] = {:g}, expected {:g} ({}); {} of {} elements wrong", w.buffer,
                                                w.index, w.got, w.expected, w.comparison, w.wrong, w.checked);
        if (simulator_) {
            WriterLocator locator(compiler_);
            out.wrong->writer = locator.locate(doc, got, w.buffer, w.index);
        } else {
            out.wrong->writer.note = "the thread and line that wrote it are found on the simulator (--device sim)";
        }
        return out;
    }
    if (!out.inputsModified.empty()) {
        out.verdict = CaseOutcome::Verdict::Wrong;
        std::string names;
        for (const auto& n : out.inputsModified)
            names += (names.empty() ? "" : ", ") + n;
        out.message = "the kernel changed its input " + names;
        return out;
    }
    if (exercise_.limits.instructions > 0 && got.profile && double(out.instructions) > exercise_.limits.instructions) {
        out.verdict = CaseOutcome::Verdict::Limit;
        out.message
            = fmt::format("{} instructions, over the limit of {:g}", out.instructions, exercise_.limits.instructions);
        return out;
    }
    if (got.profile) {
        const std::uint64_t threads = threadsLaunched(doc, got);
        for (const CounterGoal& goal : exercise_.goals) {
            if (!goal.appliesTo(gc.name))
                continue;
            out.goals.push_back(goal.grade(*got.profile, threads));
            if (!out.goals.back().met && out.verdict == CaseOutcome::Verdict::Pass) {
                out.verdict = CaseOutcome::Verdict::GoalMissed;
                out.message = out.goals.back().text;
            }
        }
    }
    return out;
}

std::optional<WrongElement> Grader::firstWrong(const Document& doc, const RunResult& got,
                                               const RunResult* expected) const
{
    // The outputs in the exercise's order; the first wrong element of the first wrong one.
    for (std::size_t k = 0; k < exercise_.outputs.size(); ++k) {
        const OutputComparison& c = exercise_.outputs[k];
        const BufferResult* g = findResult(got, c.buffer);
        const BufferSpec* spec = doc.findBuffer(c.buffer);
        if (!g || !spec)
            throw Error(ErrorCategory::Internal, fmt::format("output {} was not read back", c.buffer));
        std::optional<double> fill;
        if (spec->direction == Direction::Out)
            fill = OutputComparison::asHeld(spec->dtype, sentinel(spec->dtype));
        WrongElement w;
        w.buffer = c.buffer;
        w.comparison = c.describe();
        if (expected) {
            const BufferResult* e = findResult(*expected, c.buffer);
            if (!e)
                throw Error(ErrorCategory::Internal, fmt::format("the reference's {} was not read back", c.buffer));
            const ComparisonResult r = c.compare(e->data, g->data, fill);
            if (!r.first)
                continue;
            w.index = r.first->index;
            w.expected = r.first->expected;
            w.got = r.first->got;
            w.unwritten = r.first->unwritten;
            w.wrong = r.wrong;
            w.checked = r.checked;
            return w;
        }
        // An expression reference: the check of this output, in the same order.
        if (k >= got.checks.size() || got.checks[k].buffer != c.buffer)
            throw Error(ErrorCategory::Internal,
                        fmt::format("the expression of output {} was not evaluated", c.buffer));
        const CheckResult& r = got.checks[k];
        if (r.passed || r.firstMismatches.empty())
            continue;
        w.index = r.firstMismatches[0].index;
        w.expected = r.firstMismatches[0].expected;
        w.got = r.firstMismatches[0].got;
        w.unwritten = fill && w.got == *fill;
        w.wrong = r.mismatches;
        w.checked = r.checked;
        return w;
    }
    return std::nullopt;
}

std::vector<std::string> Grader::inputsChanged(const Document& doc, const RunResult& got,
                                               const RunResult* expected) const
{
    // Read back after the launch; before it they were the reference's, or as prepared.
    std::vector<BufferArg> prepared;
    if (!expected)
        prepared = PreparedRun::fromDocument(doc).buffers;
    std::vector<std::string> changed;
    for (const BufferSpec& b : exercise_.document.buffers) {
        if (b.global || b.direction != Direction::In)
            continue;
        const BufferResult* g = findResult(got, b.name);
        const HostBuffer* before = nullptr;
        if (expected) {
            if (const BufferResult* e = findResult(*expected, b.name))
                before = &e->data;
        } else {
            for (const BufferArg& p : prepared)
                if (p.name == b.name)
                    before = &p.data;
        }
        if (g && before && before->bytes() != g->data.bytes())
            changed.push_back(b.name);
    }
    return changed;
}

SolutionReport Grader::gradeOne(const Solution& solution)
{
    SolutionReport report;
    report.solution = solution.label;
    const auto t0 = SteadyClock::now();
    for (const GradeCase& gc : exercise_.cases) {
        report.cases.push_back(gradeCase(gc, solution));
        if (onCase_)
            onCase_(solutionIndex_, report.cases.back());
    }
    report.ms = msSince(t0);
    return report;
}

GradeReport Grader::grade(const std::vector<Solution>& solutions)
{
    GradeReport report;
    report.exercise = exercise_.title;
    report.exercisePath = exercise_.path.string();
    report.device = backend_.device().name;
    report.secretSeed = secret_;
    report.goalsGraded = simulator_;
    for (std::size_t i = 0; i < solutions.size(); ++i) {
        solutionIndex_ = i;
        report.solutions.push_back(gradeOne(solutions[i]));
    }
    return report;
}

} // namespace kw::grade
