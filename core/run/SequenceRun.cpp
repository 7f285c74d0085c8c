#include "run/SequenceRun.hpp"

#include "doc/ArgumentPacker.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/Expression.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "doc/ScalarPacker.hpp"
#include "doc/StepPaths.hpp"
#include "run/ArgumentCheck.hpp"
#include "run/PrintfLineParser.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
void listSteps(const std::vector<StepSpec>& steps, std::vector<StepResult>& out,
               std::map<std::string, std::size_t>& index)
{
    for (const auto& [path, s] : StepPaths::list(steps)) {
        StepResult r;
        r.path = path;
        r.kind = toString(s->kind);
        r.name = s->name.empty() ? describe(*s) : s->name;
        r.kernel = s->kernel;
        index[r.path] = out.size();
        out.push_back(std::move(r));
    }
}

std::string bytesText(std::uint64_t bytes)
{
    if (bytes >= (std::uint64_t(1) << 30) && bytes % (std::uint64_t(1) << 30) == 0)
        return fmt::format("{} GiB", bytes >> 30);
    if (bytes >= (std::uint64_t(1) << 20) && bytes % (std::uint64_t(1) << 20) == 0)
        return fmt::format("{} MiB", bytes >> 20);
    return fmt::format("{} bytes", bytes);
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
    listSteps(doc_.steps, result.steps, stepIndex_);
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
    // The run's profile: every step's, each line noting the steps that ran it.
    for (const StepResult& s : result.steps)
        if (s.profile) {
            if (!result.profile)
                result.profile.emplace();
            result.profile->add(*s.profile, s.path);
        }
    if (!leftOut_.empty())
        result.warnings.push_back(fmt::format(
            "the buffers after step{} {} were not kept: they would pass the limit of {} of buffers kept after steps",
            leftOut_.size() > 1 ? "s" : "", fmt::join(leftOut_, ", "), bytesText(keepLimit_)));

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
        for (std::size_t i = 0; i < n; ++i)
            result.buffers.push_back(bufferNow(i));
    } catch (const Error& e) {
        if (!result.fault)
            throw;
        result.buffers.clear();
        result.warnings.push_back(std::string("the buffers could not be read back after the fault: ") + e.what());
    }
}

void SequenceRun::keepBuffersAfter(const std::vector<std::string>& paths, std::uint64_t limitBytes)
{
    keep_ = std::set<std::string>(paths.begin(), paths.end());
    keepAll_ = keep_.count("*") > 0;
    keepLimit_ = limitBytes;
}

std::string SequenceRun::currentNames(const std::string& message) const
{
    static const std::string kOpen = "buffer '";
    std::string out;
    std::size_t at = 0;
    for (std::size_t p = message.find(kOpen); p != std::string::npos; p = message.find(kOpen, at)) {
        const std::size_t nameAt = p + kOpen.size(), end = message.find('\'', nameAt);
        if (end == std::string::npos)
            break;
        std::string name = message.substr(nameAt, end - nameAt);
        // Resident buffer k was uploaded as document buffer k; it is named now by whichever
        // document buffer points at it.
        for (std::size_t k = 0; k < prepared_.buffers.size(); ++k)
            if (prepared_.buffers[k].name == name) {
                const auto now = std::find(resident_.begin(), resident_.end(), k);
                if (now != resident_.end())
                    name = prepared_.buffers[std::size_t(now - resident_.begin())].name;
                break;
            }
        out += message.substr(at, nameAt - at) + name;
        at = end;
    }
    return out + message.substr(at);
}

BufferResult SequenceRun::bufferNow(std::size_t i)
{
    BufferResult b;
    b.name = prepared_.buffers[i].name;
    b.direction = prepared_.buffers[i].direction;
    b.data = current(i);
    b.shape = i < prepared_.shapes.size() ? prepared_.shapes[i] : std::vector<std::size_t>{b.data.count()};
    return b;
}

void SequenceRun::keepBuffers(StepResult& r)
{
    if (!keepAll_ && !keep_.count(r.path))
        return;
    if (r.buffers.empty()) { // the first run of this step: does a copy still fit?
        if (std::find(leftOut_.begin(), leftOut_.end(), r.path) != leftOut_.end())
            return;
        std::uint64_t bytes = 0;
        for (const BufferArg& b : prepared_.buffers)
            bytes += b.data.byteSize();
        if (bytes > keepLimit_ || kept_ > keepLimit_ - bytes) {
            leftOut_.push_back(r.path);
            return;
        }
        kept_ += bytes;
    }
    r.buffers.clear();
    for (std::size_t i = 0; i < prepared_.buffers.size(); ++i)
        r.buffers.push_back(bufferNow(i));
}

void SequenceRun::runList(const std::vector<StepSpec>& steps, const std::string& field, const std::string& parent)
{
    for (std::size_t i = 0; i < steps.size() && !halted_; ++i)
        runStep(steps[i], fmt::format("{}[{}]", field, i), StepPaths::child(parent, i));
}

void SequenceRun::runStep(const StepSpec& step, const std::string& field, const std::string& path)
{
    if (deadline_.passed()) {
        stop(fmt::format("the time limit of {} s was reached before step {}", formatNumber(doc_.run.timeLimitSeconds),
                         path));
        return;
    }
    StepResult& r = result_->steps[stepIndex_.at(path)];
    progress_.started(path);
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
    if (!halted_ && !step.checks.empty()) {
        std::vector<CheckResult> checks = checksNow(step.checks, field + ".checks");
        if (allPassed(r.checks)) // keep the first pass that failed
            r.checks = std::move(checks);
    }
    // A loop stopped at its limit left buffers worth seeing; after a fault a GPU has none to read.
    if (!result_->fault)
        keepBuffers(r);
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
    for (LaunchArg& a : args)
        if (a.isBuffer)
            a.buffer = resident_[a.buffer];

    LaunchReport report = device_->launch(kernel.image, args, config);
    changed();
    if (report.profile) {
        if (!r.profile)
            r.profile.emplace();
        r.profile->add(*report.profile);
    }
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
        f.message = fmt::format("step {} ({}): {}", r.path, step.kernel, currentNames(f.message));
        result_->findings.push_back(std::move(f));
    }
    if (report.fault) {
        Fault fault = *report.fault;
        fault.message
            = fmt::format("step {} ({}, run {}): {}", r.path, step.kernel, r.runs, currentNames(fault.message));
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
        runList(step.steps, field + ".steps", path);
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
