#include "run/SequenceRun.hpp"

#include "doc/ArgumentPacker.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/Expression.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "doc/ScalarPacker.hpp"
#include "run/ArgumentCheck.hpp"
#include "run/PrintfLineParser.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kw {

namespace {

bool anyUsesInitialData(const std::vector<StepSpec>& steps)
{
    return std::any_of(steps.begin(), steps.end(), [](const StepSpec& s) {
        return CheckEvaluator::usesInitialData(s.checks) || anyUsesInitialData(s.steps);
    });
}

bool allPassed(const std::vector<CheckResult>& checks)
{
    return std::all_of(checks.begin(), checks.end(), [](const CheckResult& c) { return c.passed; });
}

// What a step is, for the timings table when the document does not name it.
std::string describe(const StepSpec& s)
{
    using K = StepSpec::Kind;
    switch (s.kind) {
    case K::Launch: return s.kernel;
    case K::Copy: return fmt::format("copy {} to {}", s.from, s.to);
    case K::Fill: return fmt::format("fill {} with {}", s.to, s.value);
    case K::Swap: return fmt::format("swap {} and {}", s.from, s.to);
    case K::Repeat: return fmt::format("repeat {}", s.times);
    case K::RepeatUntil: return fmt::format("repeat until {}", s.until);
    }
    return {};
}

// Every step in document order (a repeat before its inner steps), so the results list
// them all, the ones that never ran too.
void listSteps(const std::vector<StepSpec>& steps, const std::string& prefix, std::vector<StepResult>& out,
               std::map<std::string, std::size_t>& index)
{
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StepSpec& s = steps[i];
        StepResult r;
        r.path = prefix + std::to_string(i + 1);
        r.kind = toString(s.kind);
        r.name = s.name.empty() ? describe(s) : s.name;
        r.kernel = s.kernel;
        index[r.path] = out.size();
        out.push_back(std::move(r));
        listSteps(s.steps, out.back().path + ".", out, index);
    }
}

} // namespace

SequenceRun::SequenceRun(const Document& doc, std::map<std::string, CompiledKernel> kernels, PreparedRun prepared,
                         Backend& backend, const LaunchConfig& shared)
    : doc_(doc)
    , kernels_(std::move(kernels))
    , prepared_(std::move(prepared))
    , backend_(backend)
    , shared_(shared)
    , deadline_(doc.run.timeLimitSeconds)
    , scope_(prepared_.variables)
{
}

SequenceRun::~SequenceRun() = default;

double SequenceRun::readElement(void* userData, double j)
{
    auto* read = static_cast<BufferRead*>(userData);
    const HostBuffer& b = read->run->current(read->buffer);
    if (!(j >= 0) || j != std::floor(j) || j >= double(b.count()))
        throw Error(ErrorCategory::Expression,
                    fmt::format("{}({}) is outside the buffer ({} elements)",
                                read->run->prepared_.buffers[read->buffer].name, formatNumber(j), b.count()));
    return b.at(std::size_t(j));
}

const HostBuffer& SequenceRun::current(std::size_t index)
{
    if (cachedAt_[index] != generation_) {
        const BufferArg& b = prepared_.buffers[index];
        if (cache_[index].count() != b.data.count())
            cache_[index] = HostBuffer(b.data.dtype(), b.data.count());
        device_->read(resident_[index], cache_[index]);
        cachedAt_[index] = generation_;
    }
    return cache_[index];
}

void SequenceRun::stop(const std::string& why)
{
    if (!halted_ && result_)
        result_->stopped = why;
    halted_ = true;
}

std::size_t SequenceRun::bufferIndex(const std::string& name, const std::string& field) const
{
    for (std::size_t i = 0; i < prepared_.buffers.size(); ++i)
        if (prepared_.buffers[i].name == name)
            return i;
    throw Error(ErrorCategory::Document, fmt::format("{}: no buffer named \"{}\"", field, name));
}

std::size_t SequenceRun::wholeNumber(const std::string& text, const std::string& field, std::size_t otherwise) const
{
    if (text.empty())
        return otherwise;
    const std::int64_t v = scope_.evaluateInteger(text, field);
    if (v < 0)
        throw Error(ErrorCategory::Document, fmt::format("{}: \"{}\" must not be negative ({})", field, text, v));
    return std::size_t(v);
}

void SequenceRun::run(RunResult& result)
{
    result_ = &result;
    listSteps(doc_.steps, "", result.steps, stepIndex_);
    device_ = backend_.residentBuffers();

    const std::size_t n = prepared_.buffers.size();
    if (CheckEvaluator::usesInitialData(doc_.checks) || anyUsesInitialData(doc_.steps))
        for (const BufferArg& b : prepared_.buffers)
            initial_.push_back(b.data);
    for (std::size_t i = 0; i < n; ++i)
        resident_.push_back(device_->add(prepared_.buffers[i]));
    cache_.resize(n);
    cachedAt_.assign(n, 0);
    readers_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        readers_[i] = BufferRead{this, i};
        scope_.setFunction(prepared_.buffers[i].name, &SequenceRun::readElement, &readers_[i]);
    }

    runList(doc_.steps, "steps", "");

    if (!halted_) {
        result.checks = checksNow(doc_.checks, "checks");
    }
    result.ok = !halted_ && !result.fault && result.findings.empty() && allPassed(result.checks)
        && std::all_of(result.steps.begin(), result.steps.end(),
                       [](const StepResult& s) { return allPassed(s.checks); });

    RunTimings& t = result.timings;
    t.kernelMs = {kernelMs_};
    t.minMs = t.medianMs = t.meanMs = kernelMs_;

    // After a fault a GPU's context is lost and nothing can be read: then no buffers come
    // back, rather than their initial contents shown as results.
    try {
        for (std::size_t i = 0; i < n; ++i) {
            BufferResult b;
            b.name = prepared_.buffers[i].name;
            b.direction = prepared_.buffers[i].direction;
            b.shape = i < prepared_.shapes.size() ? prepared_.shapes[i] : std::vector<std::size_t>{cache_[i].count()};
            b.data = current(i);
            result.buffers.push_back(std::move(b));
        }
    } catch (const Error& e) {
        if (!result.fault)
            throw;
        result.buffers.clear();
        result.warnings.push_back(std::string("the buffers could not be read back after the fault: ") + e.what());
    }
}

void SequenceRun::runList(const std::vector<StepSpec>& steps, const std::string& field, const std::string& path)
{
    for (std::size_t i = 0; i < steps.size() && !halted_; ++i)
        runStep(steps[i], fmt::format("{}[{}]", field, i), path + std::to_string(i + 1));
}

void SequenceRun::runStep(const StepSpec& step, const std::string& field, const std::string& path)
{
    if (deadline_.passed()) {
        stop(fmt::format("the time limit of {} s was reached before step {}", formatNumber(doc_.run.timeLimitSeconds),
                         path));
        return;
    }
    StepResult& r = result_->steps[stepIndex_.at(path)];
    using K = StepSpec::Kind;
    switch (step.kind) {
    case K::Launch: launchStep(step, field, r); break;
    case K::Copy:
        copyStep(step, field);
        ++r.runs;
        break;
    case K::Fill:
        fillStep(step, field);
        ++r.runs;
        break;
    case K::Swap: {
        const std::size_t a = bufferIndex(step.from, field + ".swap[0]"), b = bufferIndex(step.to, field + ".swap[1]");
        std::swap(resident_[a], resident_[b]);
        changed();
        ++r.runs;
        break;
    }
    case K::Repeat:
    case K::RepeatUntil: repeatStep(step, field, path, r); break;
    }
    if (halted_ || step.checks.empty())
        return;
    std::vector<CheckResult> checks = checksNow(step.checks, field + ".checks");
    if (allPassed(r.checks)) // keep the first pass that failed
        r.checks = std::move(checks);
}

void SequenceRun::launchStep(const StepSpec& step, const std::string& field, StepResult& r)
{
    const CompiledKernel& kernel = kernels_.at(step.kernel);
    LaunchConfig config = shared_;
    const LaunchDims dims = evaluateLaunch(step.launch, scope_, field);
    config.grid = dims.grid;
    config.block = dims.block;
    config.sharedBytes = dims.sharedBytes;

    std::vector<LaunchArg> args;
    for (std::size_t a = 0; a < step.args.size(); ++a)
        args.push_back(
            packArgument(step.args[a], prepared_.buffers, scope_, argumentField(field + ".args", a, step.args[a])).arg);
    if (checkedArgs_.insert(field).second) {
        for (const std::string& w :
             ArgumentCheck::check(step.kernel, kernel.image.entry, kernel.signature ? &*kernel.signature : nullptr,
                                  step.args, args, prepared_.buffers))
            result_->warnings.push_back(fmt::format("step {}: {}", r.path, w));
    }
    if (!holdAt_.empty() && (r.path == holdAt_ || (!step.name.empty() && step.name == holdAt_))) {
        HeldLaunch held{r.path, kernel, {}, args, config};
        for (std::size_t i = 0; i < prepared_.buffers.size(); ++i) {
            const BufferArg& b = prepared_.buffers[i];
            held.buffers.push_back(BufferArg{b.name, b.direction, current(i), b.global});
        }
        held_ = std::move(held);
        stop(fmt::format("held before step {}", r.path));
        return;
    }
    for (LaunchArg& a : args)
        if (a.isBuffer)
            a.buffer = resident_[a.buffer];

    LaunchReport report = device_->launch(kernel.image, args, config);
    changed();
    ++r.runs;
    r.grid = config.grid;
    r.block = config.block;
    r.sharedBytes = config.sharedBytes;
    r.kernelMs.push_back(report.timings.firstLaunchMs);
    r.totalMs += report.timings.firstLaunchMs;
    kernelMs_ += report.timings.firstLaunchMs;

    PrintfOutput printed = PrintfLineParser::parse(report.printfOutput);
    PrintfOutput& all = result_->printf;
    for (PrintfLine& line : printed.lines) {
        line.step = r.path;
        all.lines.push_back(std::move(line));
    }
    all.untagged.insert(all.untagged.end(), printed.untagged.begin(), printed.untagged.end());
    all.raw += printed.raw;
    all.truncated = all.truncated || report.printfMaybeTruncated;
    for (const std::string& w : report.warnings)
        result_->warnings.push_back(fmt::format("step {}: {}", r.path, w));
    for (CheckFinding& f : report.findings) {
        f.message = fmt::format("step {} ({}): {}", r.path, step.kernel, f.message);
        result_->findings.push_back(std::move(f));
    }
    if (report.fault) {
        Fault fault = *report.fault;
        fault.message = fmt::format("step {} ({}, run {}): {}", r.path, step.kernel, r.runs, fault.message);
        result_->fault = std::move(fault);
        result_->faultStep = r.path;
        stop(fmt::format("step {} faulted", r.path));
    } else if (!report.ok) {
        stop(fmt::format("step {} ({}) did not complete", r.path, step.kernel));
    }
}

void SequenceRun::copyStep(const StepSpec& step, const std::string& field)
{
    const std::size_t from = bufferIndex(step.from, field + ".copy"), to = bufferIndex(step.to, field + ".to");
    const HostBuffer& a = prepared_.buffers[from].data;
    const HostBuffer& b = prepared_.buffers[to].data;
    const std::size_t fromOffset = wholeNumber(step.fromOffset, field + ".from_offset", 0);
    const std::size_t toOffset = wholeNumber(step.toOffset, field + ".to_offset", 0);
    const std::size_t count = wholeNumber(step.count, field + ".count", a.count());
    if (fromOffset > a.count() || count > a.count() - fromOffset)
        throw Error(ErrorCategory::Document,
                    fmt::format("{}: elements {} to {} are outside \"{}\" ({} elements)", field, fromOffset,
                                fromOffset + count, step.from, a.count()));
    if (toOffset > b.count() || count > b.count() - toOffset)
        throw Error(ErrorCategory::Document,
                    fmt::format("{}: elements {} to {} are outside \"{}\" ({} elements)", field, toOffset,
                                toOffset + count, step.to, b.count()));
    const std::size_t size = sizeOf(a.dtype());
    device_->copy(resident_[from], fromOffset * size, resident_[to], toOffset * size, count * size);
    changed();
}

void SequenceRun::fillStep(const StepSpec& step, const std::string& field)
{
    const std::size_t index = bufferIndex(step.to, field + ".fill");
    const HostBuffer& b = prepared_.buffers[index].data;
    const std::size_t offset = wholeNumber(step.toOffset, field + ".offset", 0);
    const std::size_t count = wholeNumber(step.count, field + ".count", b.count() - std::min(offset, b.count()));
    if (offset > b.count() || count > b.count() - offset)
        throw Error(ErrorCategory::Document,
                    fmt::format("{}: elements {} to {} are outside \"{}\" ({} elements)", field, offset, offset + count,
                                step.to, b.count()));
    const double value = scope_.evaluate(step.value, field + ".value");
    const std::vector<std::byte> element = packScalar(b.dtype(), step.value, value, field + ".value");
    device_->fill(resident_[index], offset * sizeOf(b.dtype()), element, count);
    changed();
}

void SequenceRun::repeatStep(const StepSpec& step, const std::string& field, const std::string& path, StepResult& r)
{
    const bool until = step.kind == StepSpec::Kind::RepeatUntil;
    const std::size_t passes
        = until ? wholeNumber(step.limit, field + ".limit", 0) : wholeNumber(step.times, field + ".repeat", 0);
    const double before = kernelMs_;
    bool held = false;
    for (std::size_t pass = 0; pass < passes && !halted_; ++pass) {
        if (!step.index.empty())
            scope_.set(step.index, double(pass));
        runList(step.steps, field + ".steps", path + ".");
        if (halted_)
            break;
        ++r.runs;
        if (until && scope_.evaluate(step.until, field + ".repeat_until") != 0) {
            held = true;
            break;
        }
    }
    r.totalMs += kernelMs_ - before;
    if (until && !held && !halted_)
        stop(fmt::format("step {} ({}): the condition still did not hold after {} passes, the step's limit; the "
                         "buffers are as the last pass left them",
                         path, "repeat until " + step.until, passes));
}

std::vector<CheckResult> SequenceRun::checksNow(const std::vector<CheckSpec>& checks, const std::string& field)
{
    if (checks.empty())
        return {};
    std::vector<CheckBuffer> views;
    for (std::size_t b = 0; b < prepared_.buffers.size(); ++b) {
        CheckBuffer v{prepared_.buffers[b].name, &current(b), nullptr,
                      b < prepared_.shapes.size() ? prepared_.shapes[b] : std::vector<std::size_t>{}};
        if (b < initial_.size())
            v.initial = &initial_[b];
        views.push_back(std::move(v));
    }
    const CheckEvaluator evaluator(scope_, std::move(views));
    std::vector<CheckResult> results;
    for (std::size_t c = 0; c < checks.size(); ++c)
        results.push_back(evaluator.evaluate(checks[c], fmt::format("{}[{}]", field, c), deadline_));
    return results;
}

} // namespace kw
