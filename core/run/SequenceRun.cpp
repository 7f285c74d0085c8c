#include "run/SequenceRun.hpp"

#include "doc/ArgumentPacker.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/Expression.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "doc/ScalarPacker.hpp"
#include "doc/StepPaths.hpp"
#include "run/ArgumentCheck.hpp"
#include "run/PrintfLineParser.hpp"
#include "run/StraightLoop.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>

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
// Launches, copies and fills per recording: enough to spread a graph's launch cost, few
// enough that building it stays cheap.
constexpr std::size_t kOpsPerRecording = 128;
// The longest cycle of swaps looked for; a longer one is planned pass by pass.
constexpr std::size_t kLongestSwapCycle = 8;
// Replays are waited for in batches of about this long, so the time limit is looked at.
constexpr double kBatchMs = 200;

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
    // The kernels whose lines belong to their launch: they run step by step.
    for (const auto& [name, k] : kernels_)
        if (k.image.ptx.find("vprintf") != std::string::npos)
            printing_.insert(name);
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
            cache_[index] = HostBuffer::uninitialised(b.data.dtype(), b.data.count()); // read whole below
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
        for (std::size_t i = 0; i < n; ++i) {
            BufferResult b;
            b.name = prepared_.buffers[i].name;
            b.direction = prepared_.buffers[i].direction;
            // The last read needs no copy: into the host memory the buffer was uploaded from
            // (touched already, unlike a fresh allocation), unless it was read back just now.
            if (cachedAt_[i] == generation_) {
                b.data = std::move(cache_[i]);
            } else {
                device_->read(resident_[i], prepared_.buffers[i].data);
                b.data = std::move(prepared_.buffers[i].data);
            }
            cachedAt_[i] = 0;
            b.shape = i < prepared_.shapes.size() ? prepared_.shapes[i] : std::vector<std::size_t>{b.data.count()};
            result.buffers.push_back(std::move(b));
        }
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

bool SequenceRun::keepsInside(const std::string& loopPath) const
{
    if (keepAll_)
        return true;
    const std::string prefix = loopPath + ".";
    return std::any_of(keep_.begin(), keep_.end(), [&](const std::string& p) { return p.rfind(prefix, 0) == 0; });
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
    case K::Swap:
        swapStep(step, field);
        ++r.runs;
        break;
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

ResidentOp SequenceRun::planLaunch(const StepSpec& step, const std::string& field, StepResult& r)
{
    const CompiledKernel& kernel = kernels_.at(step.kernel);
    ResidentOp op;
    op.kind = ResidentOp::Kind::Launch;
    op.kernel = &kernel.image;
    op.config = shared_;
    const LaunchDims dims = evaluateLaunch(step.launch, scope_, field);
    op.config.grid = dims.grid;
    op.config.block = dims.block;
    op.config.sharedBytes = dims.sharedBytes;

    for (std::size_t a = 0; a < step.args.size(); ++a)
        op.args.push_back(
            packArgument(step.args[a], prepared_.buffers, scope_, argumentField(field + ".args", a, step.args[a])).arg);
    if (checkedArgs_.insert(field).second) {
        for (const std::string& w :
             ArgumentCheck::check(step.kernel, kernel.image.entry, kernel.signature ? &*kernel.signature : nullptr,
                                  step.args, op.args, prepared_.buffers))
            result_->warnings.push_back(fmt::format("step {}: {}", r.path, w));
    }
    // A debugger asked to hold the run before this launch: it gets the launch and the
    // buffers as they are now, and the run stops here.
    if (!holdAt_.empty() && (r.path == holdAt_ || (!step.name.empty() && step.name == holdAt_))
        && ++holdSeen_ >= holdPass_) {
        HeldLaunch held{r.path, kernel, {}, op.args, op.config};
        for (std::size_t i = 0; i < prepared_.buffers.size(); ++i) {
            const BufferArg& b = prepared_.buffers[i];
            held.buffers.push_back(BufferArg{b.name, b.direction, current(i), b.global});
        }
        held_ = std::move(held);
        stop(fmt::format("held before step {}", r.path));
        return op;
    }
    for (LaunchArg& a : op.args)
        if (a.isBuffer)
            a.buffer = resident_[a.buffer];
    r.grid = op.config.grid;
    r.block = op.config.block;
    r.sharedBytes = op.config.sharedBytes;
    return op;
}

void SequenceRun::launchStep(const StepSpec& step, const std::string& field, StepResult& r)
{
    const ResidentOp op = planLaunch(step, field, r);
    if (halted_) // held for a debugger
        return;
    LaunchReport report = device_->launch(*op.kernel, op.args, op.config);
    changed();
    if (report.profile) {
        if (!r.profile)
            r.profile.emplace();
        r.profile->add(*report.profile);
    }
    ++r.runs;
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
    const ResidentOp op = planCopy(step, field);
    device_->copy(op.from, op.fromOffset, op.to, op.toOffset, op.bytes);
    changed();
}

void SequenceRun::fillStep(const StepSpec& step, const std::string& field)
{
    const ResidentOp op = planFill(step, field);
    device_->fill(op.to, op.toOffset, op.element, op.count);
    changed();
}

void SequenceRun::swapStep(const StepSpec& step, const std::string& field)
{
    const std::size_t a = bufferIndex(step.from, field + ".swap[0]"), b = bufferIndex(step.to, field + ".swap[1]");
    std::swap(resident_[a], resident_[b]);
    changed();
}

ResidentOp SequenceRun::planCopy(const StepSpec& step, const std::string& field)
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
    ResidentOp op;
    op.kind = ResidentOp::Kind::Copy;
    op.from = resident_[from];
    op.fromOffset = fromOffset * size;
    op.to = resident_[to];
    op.toOffset = toOffset * size;
    op.bytes = count * size;
    return op;
}

ResidentOp SequenceRun::planFill(const StepSpec& step, const std::string& field)
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
    ResidentOp op;
    op.kind = ResidentOp::Kind::Fill;
    op.element = packScalar(b.dtype(), step.value, value, field + ".value");
    op.to = resident_[index];
    op.toOffset = offset * sizeOf(b.dtype());
    op.count = count;
    return op;
}

void SequenceRun::repeatStep(const StepSpec& step, const std::string& field, const std::string& path, StepResult& r)
{
    const bool until = step.kind == StepSpec::Kind::RepeatUntil;
    const std::size_t passes
        = until ? wholeNumber(step.limit, field + ".limit", 0) : wholeNumber(step.times, field + ".repeat", 0);
    const double before = kernelMs_;
    bool held = false;
    std::optional<StraightLoop> straight;
    // Checks and per-line counters are gathered launch by launch, so such a run goes pass by pass.
    if (doc_.run.graph && passes >= 2 && shared_.check == CheckTool::None && !shared_.profile.enabled
        && holdAt_.empty()) {
        std::vector<std::string> names;
        for (const BufferArg& b : prepared_.buffers)
            names.push_back(b.name);
        straight = StraightLoop::of(step, names, printing_);
        if (!straight->straight() && device_->recordsGraphs())
            note(path, fmt::format("step {} ({}) ran step by step: {}", path, r.name, straight->why()));
    }
    for (std::size_t pass = 0; pass < passes && !halted_; ++pass) {
        if (pass == 1 && straight && straight->straight()) {
            // The buffers after an inner step are those of its last run: when they are kept,
            // the last pass runs step by step so that they can be read there.
            const std::size_t recordedEnd = keepsInside(path) ? passes - 1 : passes;
            if (recordedEnd > 1)
                runRecorded(step, field, path, r, 1, recordedEnd, straight->samePasses(), straight->opsPerPass());
            if (halted_ || recordedEnd == passes)
                break;
            pass = recordedEnd;
        }
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

void SequenceRun::planPass(const StepSpec& loop, const std::string& field, const std::string& path, std::size_t pass,
                           Planned& into)
{
    if (!loop.index.empty())
        scope_.set(loop.index, double(pass));
    for (std::size_t i = 0; i < loop.steps.size(); ++i) {
        const StepSpec& s = loop.steps[i];
        const std::string f = fmt::format("{}.steps[{}]", field, i);
        const std::size_t at = stepIndex_.at(fmt::format("{}.{}", path, i + 1));
        switch (s.kind) {
        case StepSpec::Kind::Launch:
            into.ops.push_back(planLaunch(s, f, result_->steps[at]));
            into.launchSteps.push_back(at);
            break;
        case StepSpec::Kind::Copy: into.ops.push_back(planCopy(s, f)); break;
        case StepSpec::Kind::Fill: into.ops.push_back(planFill(s, f)); break;
        case StepSpec::Kind::Swap: swapStep(s, f); break;
        default: break; // a straight loop has no other steps
        }
    }
}

void SequenceRun::runRecorded(const StepSpec& loop, const std::string& field, const std::string& path, StepResult& r,
                              std::size_t first, std::size_t passes, bool samePasses, std::size_t opsPerPass)
{
    const std::size_t left = passes - first;
    std::size_t chunk = std::max<std::size_t>(1, kOpsPerRecording / std::max<std::size_t>(1, opsPerPass));
    const double before = kernelMs_;
    std::string how;
    std::size_t recordings = 0, updates = 0;

    if (samePasses) {
        // Every pass is the same but for the swaps: plan one cycle of them (the names are
        // back where they started), then replay whole cycles.
        const std::vector<std::size_t> start = resident_;
        std::vector<Planned> cycle;
        std::vector<std::vector<std::size_t>> namesAfter;
        do {
            cycle.emplace_back();
            planPass(loop, field, path, first + cycle.size() - 1, cycle.back());
            namesAfter.push_back(resident_);
        } while (resident_ != start && cycle.size() < kLongestSwapCycle);
        if (resident_ == start) {
            const std::size_t period = cycle.size();
            chunk = std::min(left, std::max(period, chunk / period * period));
            const auto passesOf = [&](std::size_t m) {
                Planned all;
                for (std::size_t j = 0; j < m; ++j) {
                    const Planned& p = cycle[j % period];
                    all.ops.insert(all.ops.end(), p.ops.begin(), p.ops.end());
                    all.launchSteps.insert(all.launchSteps.end(), p.launchSteps.begin(), p.launchSteps.end());
                }
                return all;
            };
            const std::size_t full = left / chunk, rest = left % chunk;
            if (full > 0) {
                const Planned planned = passesOf(chunk);
                auto recorded = device_->record(planned.ops);
                ++recordings;
                how = recorded->how();
                if (!replay(*recorded, planned, full, chunk, loop, path, first))
                    return;
            }
            if (rest > 0) {
                const Planned planned = passesOf(rest);
                auto recorded = device_->record(planned.ops);
                ++recordings;
                if (how.empty())
                    how = recorded->how();
                if (!replay(*recorded, planned, 1, rest, loop, path, first + full * chunk))
                    return;
            }
            resident_ = left % period == 0 ? start : namesAfter[left % period - 1];
            changed();
        } else {
            resident_ = start; // no short cycle: plan pass by pass below
            samePasses = false;
        }
    }
    if (!samePasses) {
        // The passes differ (the pass index, or a long cycle of swaps): each chunk of passes
        // is planned, and the recording takes its dimensions and arguments when it can.
        std::unique_ptr<RecordedPass> recorded;
        for (std::size_t pass = first; pass < passes;) {
            const std::size_t m = std::min(chunk, passes - pass);
            Planned planned;
            for (std::size_t j = 0; j < m; ++j)
                planPass(loop, field, path, pass + j, planned);
            if (recorded && recorded->size() == planned.ops.size() && recorded->update(planned.ops)) {
                ++updates;
            } else {
                recorded = device_->record(planned.ops);
                ++recordings;
                if (how.empty())
                    how = recorded->how();
            }
            if (!replay(*recorded, planned, 1, m, loop, path, pass))
                return;
            pass += m;
        }
    }
    if (!loop.index.empty()) // as the last pass left it
        scope_.set(loop.index, double(passes - 1));
    if (how.empty())
        return;
    const bool graph = how.rfind("step by step", 0) != 0;
    std::string text = fmt::format("step {} ({}): passes {} to {} ran {}{}", path, r.name, first + 1, passes,
                                   graph ? "as " : "", how);
    if (!samePasses)
        text += fmt::format(" whose launch dimensions and arguments change from pass to pass ({} recordings, {} "
                            "updates of their kernel nodes)",
                            recordings, updates);
    if (graph)
        text += fmt::format("; their kernel time, {} ms, is measured over each replay, not per launch: the "
                            "launches' own times are those of pass 1 alone",
                            formatNumber(kernelMs_ - before));
    note(path, text);
}

void SequenceRun::note(const std::string& path, const std::string& text)
{
    if (noted_.insert(path).second) // a loop inside another is noted once
        result_->warnings.push_back(text);
}

bool SequenceRun::replay(RecordedPass& pass, const Planned& planned, std::size_t times, std::size_t passesEach,
                         const StepSpec& loop, const std::string& path, std::size_t firstPass)
{
    std::vector<std::size_t> counted{stepIndex_.at(path)}; // the loop and its steps, one run a pass
    for (std::size_t i = 0; i < loop.steps.size(); ++i)
        counted.push_back(stepIndex_.at(fmt::format("{}.{}", path, i + 1)));
    const std::size_t launchesPerPass = planned.launchSteps.size() / std::max<std::size_t>(1, passesEach);
    std::size_t done = 0, batch = 1;
    while (done < times) {
        const std::size_t passNow = firstPass + done * passesEach;
        if (deadline_.passed()) {
            stop(fmt::format("the time limit of {} s was reached before pass {} of step {}",
                             formatNumber(doc_.run.timeLimitSeconds), passNow + 1, path));
            return false;
        }
        const std::size_t n = std::min(batch, times - done);
        ReplayReport report = pass.replay(n, shared_.timeLimitSeconds);
        changed();
        kernelMs_ += report.ms;
        for (std::size_t k = 0; k < report.launchMs.size() && !planned.launchSteps.empty(); ++k) {
            StepResult& s = result_->steps[planned.launchSteps[k % planned.launchSteps.size()]];
            s.kernelMs.push_back(report.launchMs[k]);
            s.totalMs += report.launchMs[k];
        }
        for (const std::string& w : report.warnings)
            result_->warnings.push_back(fmt::format("step {}: {}", path, w));
        if (!report.ok) {
            // Only the passes known to have ended count as run.
            const std::size_t launches = report.launchMs.size();
            const std::size_t whole
                = launchesPerPass && report.faultOp && launches > 0 ? (launches - 1) / launchesPerPass : 0;
            for (std::size_t at : counted)
                result_->steps[at].runs += int(whole);
            // The launches of the faulting pass before the one that faulted ran too.
            for (std::size_t k = whole * launchesPerPass; k + 1 < launches; ++k)
                ++result_->steps[planned.launchSteps[k % planned.launchSteps.size()]].runs;
            std::string step = path, where;
            if (report.faultOp && launches > 0) {
                StepResult& s = result_->steps[planned.launchSteps[(launches - 1) % planned.launchSteps.size()]];
                ++s.runs;
                step = s.path;
                where = fmt::format("step {} ({}, run {})", s.path, s.kernel, s.runs);
            } else {
                where = fmt::format("step {} ({}, one of passes {} to {}, replayed as a whole)", path,
                                    result_->steps[counted.front()].name, passNow + 1, passNow + n * passesEach);
            }
            if (report.fault) {
                Fault fault = *report.fault;
                fault.message = where + ": " + fault.message;
                result_->fault = std::move(fault);
                result_->faultStep = step;
                stop(fmt::format("step {} faulted", step));
            } else {
                stop(where + " did not complete");
            }
            return false;
        }
        for (std::size_t at : counted)
            result_->steps[at].runs += int(n * passesEach);
        done += n;
        const double perReplay = report.ms / double(n);
        batch = perReplay > 0 ? std::max<std::size_t>(1, std::size_t(kBatchMs / perReplay)) : batch * 2;
    }
    return true;
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
