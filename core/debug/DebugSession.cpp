#include "debug/DebugSession.hpp"

#include "compile/PtxDebugInfo.hpp"
#include "debug/SourceValue.hpp"

#include "compile/Compiler.hpp"
#include "debug/RegisterValue.hpp"
#include "doc/Document.hpp"
#include "doc/PreparedRun.hpp"
#include "run/RunEngine.hpp"
#include "run/SequenceRun.hpp"
#include "sim/ProfileCollector.hpp"
#include "sim/PtxParser.hpp"
#include "sim/SimBackend.hpp"
#include "sim/Warp.hpp"
#include "util/Error.hpp"
#include "util/Text.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace kw::debug {

using namespace kw::sim;

namespace {

[[noreturn]] void refuse(const std::string& why) { throw Error(ErrorCategory::Usage, why); }

std::string baseName(const std::string& path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::chrono::steady_clock::time_point deadlineAfter(double seconds)
{
    if (!(seconds > 0))
        return std::chrono::steady_clock::time_point::max();
    return std::chrono::steady_clock::now()
        + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(std::min(seconds, 1e7)));
}

} // namespace

std::vector<SourceVariableView> flattened(const std::vector<SourceVariableView>& views)
{
    std::vector<SourceVariableView> out;
    for (const SourceVariableView& v : views) {
        out.push_back(v);
        out.back().parts.clear();
        for (SourceVariableView& p : flattened(v.parts))
            out.push_back(std::move(p));
    }
    return out;
}

const char* toString(StopReason r)
{
    switch (r) {
    case StopReason::Entry: return "entry";
    case StopReason::Breakpoint: return "breakpoint";
    case StopReason::Step: return "step";
    case StopReason::Watch: return "watch";
    case StopReason::Barrier: return "barrier";
    case StopReason::Reconverged: return "reconverged";
    case StopReason::BlockBegin: return "block";
    case StopReason::WarpExited: return "warp exited";
    case StopReason::BlockDone: return "block done";
    case StopReason::Finished: return "finished";
    case StopReason::Fault: return "fault";
    case StopReason::Finding: return "finding";
    case StopReason::Position: return "position";
    case StopReason::Paused: return "paused";
    }
    return "?";
}

std::unique_ptr<DebugSession> DebugSession::fromDocument(const Document& doc, Compiler& compiler,
                                                         const DebugOptions& options)
{
    if (doc.isSequence() && options.step.empty())
        refuse("the document has several steps: name the launch step to debug with --step (its path, \"2\" or "
               "\"3.1\", or its name)");
    if (!doc.isSequence() && !options.step.empty())
        refuse("--step: the document has one launch and no steps");
    // "3.1@4": the step's launch in its fourth run (pass 4 of the repeat around it).
    std::string step = options.step;
    std::size_t pass = options.pass;
    if (const auto at = step.rfind('@'); at != std::string::npos) {
        const std::string digits = step.substr(at + 1);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9)
            refuse(fmt::format("--step {}: after '@' comes the pass, a whole number from 1", options.step));
        const auto named = std::size_t(std::stoul(digits));
        if (named == 0)
            refuse(fmt::format("--step {}: passes count from 1", options.step));
        if (pass && pass != named)
            refuse(fmt::format("--step {} names pass {}, --pass {}", options.step, named, pass));
        pass = named;
        step.resize(at);
    }
    if (pass == 0)
        pass = 1;
    SimBackend sim;
    CompileRequest request = RunEngine::compileRequest(doc);
    request.options.arch = sim.archFor(doc.options.arch);
    request.options.lineInfo = true;   // the debugger's lines
    request.options.tagPrintf = false; // the simulator says which thread printed (sim::BlockPrintf)
    // -G by default: the source's variables by name, as a debugger's users expect; the
    // optimized code (the one a run runs) on request, with PTX registers only.
    request.options.deviceDebug = !options.optimized;
    const CompileResult compiled = compiler.compile(request);
    if (!compiled.ok) {
        std::string text = "the kernel does not compile:";
        for (const auto& d : compiled.diagnostics)
            text += fmt::format("\n{}:{}: {}", d.file.empty() ? request.sourceName : d.file, d.line, d.message);
        if (compiled.diagnostics.empty())
            text += "\n" + compiled.log;
        throw Error(ErrorCategory::Document, text);
    }
    PreparedRun prepared = PreparedRun::fromDocument(doc);
    LaunchConfig config = prepared.config;
    config.check = options.check;
    config.repeats = 0;
    config.warmup = 0;
    if (options.timeLimitSeconds > 0)
        config.timeLimitSeconds = options.timeLimitSeconds;
    if (!doc.isSequence()) {
        const CompiledKernel kernel = RunEngine::compiledKernel(compiled, doc.kernel);
        return std::make_unique<DebugSession>(kernel.image, std::move(prepared.buffers), std::move(prepared.args),
                                              config, doc.source, request.sourceName);
    }
    // The steps before it run on the simulator as `kwb-run run` runs them; the launch
    // step is held before it starts, with the buffers as they are then.
    std::map<std::string, CompiledKernel> kernels;
    for (const std::string& name : doc.kernels)
        kernels.emplace(name, RunEngine::compiledKernel(compiled, name));
    LaunchConfig shared = config;
    shared.check = CheckTool::None;
    SequenceRun sequence(doc, std::move(kernels), std::move(prepared), sim, shared);
    sequence.holdBefore(step, pass);
    RunResult before;
    sequence.run(before);
    if (!sequence.held())
        refuse(before.fault
                   ? fmt::format("--step {}: the steps before it faulted: {}", options.step, before.fault->message)
                   : pass > 1 ? fmt::format("--step {}: the step's launch did not run {} times (pass {})", options.step,
                                            pass, pass)
                              : fmt::format("--step {}: no launch step of that path or name ran", options.step));
    HeldLaunch held = *sequence.held();
    held.config.check = options.check;
    return std::make_unique<DebugSession>(held.kernel.image, std::move(held.buffers), std::move(held.args), held.config,
                                          doc.source, request.sourceName);
}

DebugSession::DebugSession(const KernelImage& kernel, std::vector<BufferArg> buffers, std::vector<LaunchArg> args,
                           LaunchConfig config, std::string source, std::string sourceName)
    : source_(std::move(source))
    , sourceName_(std::move(sourceName))
{
    auto module = std::make_shared<const Module>(parsePtx(kernel.ptx));
    const std::string entry = kernel.loweredName.empty() ? kernel.name : kernel.loweredName;
    const Function* function = module->findFunction(entry);
    if (!function || !function->isEntry)
        throw Error(ErrorCategory::Simulator, fmt::format("kernel entry '{}' not found in the PTX module", entry));
    timeLimitSeconds_ = config.timeLimitSeconds;
    variablesMode_ = "line information only (optimized code): PTX registers";
    try {
        if (auto info = dwarf::PtxDebugInfo::read(kernel.ptx)) {
            sources_ = std::make_unique<SourceVariables>(std::move(*info), *module, *function);
            variablesMode_ = "-G: the source's variables by name";
        }
    } catch (const Error& e) {
        variablesMode_ = fmt::format("-G, but its debug information cannot be read ({}): PTX registers", e.what());
    }
    launch_ = std::make_unique<DebugLaunch>(module, *function, kernel.name, std::move(buffers), std::move(args),
                                            std::move(config));
    observer_ = std::make_unique<DebugObserver>(*function);
    observer_->alwaysIssues(launch_->config().check != CheckTool::None);
    observer_->onBlockBegin([this](std::uint64_t block, std::uint64_t position) { keepCheckpoint(block, position); });
    launch_->onFinding([this](const CheckFinding& f) {
        const Dim3 b = launch_->config().block;
        const std::uint64_t t
            = f.thread ? f.thread->x + std::uint64_t(b.x) * (f.thread->y + std::uint64_t(b.y) * f.thread->z) : 0;
        observer_->finding(std::uint32_t(t / 32), f.thread ? int(t % 32) : -1, f.message);
    });
    attachObserver();
    observer_->pauseAtNextIssue(StopReason::Entry);
    stop_ = settle(runToStop());
}

DebugSession::~DebugSession() = default;

const Function& DebugSession::function() const { return launch_->function(); }

bool DebugSession::ended() const { return stop_.reason == StopReason::Finished || stop_.reason == StopReason::Fault; }

std::uint64_t DebugSession::position() const { return launch_->position(); }
std::uint64_t DebugSession::blocks() const { return launch_->blocks(); }
std::uint32_t DebugSession::warpsPerBlock() const { return std::uint32_t(launch_->runner().warps().size()); }
const std::vector<BufferArg>& DebugSession::buffers() const { return launch_->buffers(); }
const std::vector<std::string>& DebugSession::warnings() const { return launch_->warnings(); }

const Warp& DebugSession::focusedWarp() const { return launch_->runner().warps().at(focus_.warp); }

Location DebugSession::locate(std::uint32_t pc) const { return observer_->locate(pc); }

std::uint32_t DebugSession::instructions() const { return std::uint32_t(function().code.size()); }

namespace {
// A run's slice: an interrupt from another thread is seen within a few milliseconds; a
// pause keeps the schedule, so the run is the same run.
constexpr std::uint64_t kSlice = std::uint64_t(1) << 16;
} // namespace

bool DebugSession::sliceEndsInPause()
{
    if (whileRunning_)
        whileRunning_();
    return interrupt_.exchange(false);
}

Stop DebugSession::runToStop(bool interruptible)
{
    observer_->reattach(); // what it is told of follows what is armed now
    LaunchState& L = launch_->state();
    L.deadline = deadlineAfter(timeLimitSeconds_);
    bool pauseArmed = false;
    auto armPause = [&] {
        observer_->pauseAtNextIssue(StopReason::Paused);
        observer_->reattach(); // told of every instruction from here
        pauseArmed = true;
    };
    if (interruptible && interrupt_.exchange(false)) // asked while nothing ran: at once
        armPause();
    for (;;) {
        const LaunchStatus st = launch_->advance(interruptible ? Budget{kSlice} : Budget{});
        if (auto s = observer_->takeStop()) {
            if (s->reason == StopReason::Paused && interruptible) // resume() keeps it to go on with
                interrupted_ = Interrupted{Motion::Continue, {}, s->position, observer_->takeMotions()};
            observer_->clearMotions();
            return *s;
        }
        if (st == LaunchStatus::Finished) {
            observer_->clearMotions();
            Stop s;
            s.reason = StopReason::Finished;
            s.position = launch_->position();
            s.block = launch_->runner().linear();
            if (auto hit = observer_->takeLateWatch()) { // the launch's last instruction wrote it
                s.reason = StopReason::Watch;
                s.block = hit->block;
                s.warp = hit->warp;
                s.lane = hit->lane;
                s.watch = std::move(hit);
            }
            return s;
        }
        if (st == LaunchStatus::Stopped) {
            observer_->clearMotions();
            Stop s = observer_->lastFault().value_or(Stop{});
            s.reason = StopReason::Fault;
            std::lock_guard lock(L.mu);
            if (L.fault)
                s.message = L.fault->message;
            return s;
        }
        if (interruptible && !pauseArmed && sliceEndsInPause())
            armPause();
    }
}

Stop DebugSession::settle(Stop s)
{
    switch (s.reason) {
    case StopReason::Step:
    case StopReason::Reconverged:
    case StopReason::Barrier:
    case StopReason::WarpExited:
    case StopReason::Finished: break; // the focus stays
    default:
        focus_.block = s.block;
        focus_.warp = s.warp;
        if (s.lane >= 0)
            focus_.lane = std::uint32_t(s.lane);
        break;
    }
    if (s.reason == StopReason::BlockDone || s.reason == StopReason::BlockBegin) {
        focus_.warp = 0;
        focus_.lane = 0;
    }
    if (s.reason == StopReason::Entry || s.reason == StopReason::BlockBegin)
        focus_.lane = 0;
    stop_ = s;
    if (!ended())
        observer_->refreshWatches();
    return s;
}

void DebugSession::attachObserver() { observer_->attach(launch_->runner(), launch_->base()); }

void DebugSession::keepCheckpoint(std::uint64_t block, std::uint64_t position)
{
    const auto after = std::find_if(checkpoints_.begin(), checkpoints_.end(),
                                    [&](const Checkpoint& c) { return c.position >= position; });
    if (after != checkpoints_.end() && after->position == position)
        return; // kept already
    const std::uint64_t before = after == checkpoints_.begin() ? 0 : std::prev(after)->position;
    if (position - before < checkpointSpacing_
        || (after != checkpoints_.end() && after->position - position < checkpointSpacing_))
        return;
    Checkpoint c = launch_->checkpoint(block, position);
    if (checkpointBytes_ + c.bytes() > kCheckpointBytes)
        return;
    checkpointBytes_ += c.bytes();
    checkpoints_.insert(after, std::move(c));
}

void DebugSession::rewind(std::uint64_t position)
{
    observer_->detach();
    const Checkpoint* from = nullptr;
    for (const Checkpoint& c : checkpoints_)
        if (c.position <= position)
            from = &c;
    launch_->restart(from);
    observer_->forgetHistory();
    observer_->clearMotions();
    launch_->state().deadline = deadlineAfter(timeLimitSeconds_ > 0 ? timeLimitSeconds_ * 10 : 0);
}

bool DebugSession::runTo(std::uint64_t position)
{
    for (std::uint64_t now = launch_->position(); now < position; now = launch_->position()) {
        const LaunchStatus st = launch_->advance(Budget{std::min(kSlice, position - now)});
        if (st == LaunchStatus::Finished || st == LaunchStatus::Stopped)
            break;
        if (launch_->position() < position && sliceEndsInPause())
            return false;
    }
    return true;
}

Stop DebugSession::pausedHere(std::string message)
{
    if (launch_->position() < stop_.position) // back before hits counted forwards: undone
        observer_->forgetHitsAfter(launch_->position());
    observer_->clearMotions();
    observer_->record(false);
    attachObserver();
    observer_->pauseAtNextIssue(StopReason::Paused, std::move(message));
    observer_->quiet(true);
    return runToStop();
}

Stop DebugSession::land(const Stop& at)
{
    if (at.position < stop_.position) // going back undoes the hits counted since
        observer_->forgetHitsAfter(at.position);
    rewind(at.position);
    if (!runTo(at.position))
        return pausedHere();
    return arrive(at);
}

Stop DebugSession::arrive(const Stop& at)
{
    attachObserver();
    observer_->refreshWatches();
    observer_->pauseAtNextIssue(at.reason, at.message);
    observer_->quiet(true);
    Stop s = runToStop();
    if (s.reason == at.reason && s.position == at.position) {
        s.lane = at.lane;
        s.breakpoint = at.breakpoint;
        s.watch = at.watch;
        if (at.reason != StopReason::Breakpoint && at.reason != StopReason::Watch) {
            s.block = at.block;
            s.warp = at.warp;
        }
    }
    return s;
}

Stop DebugSession::goTo(std::uint64_t position)
{
    Stop at;
    at.reason = StopReason::Position;
    at.position = position;
    at.block = focus_.block;
    at.warp = focus_.warp;
    const Focus keep = focus_;
    Stop s = land(at);
    s.block = launch_->runner().linear();
    s = settle(s);
    if (keep.block == focus_.block) {
        focus_.warp = keep.warp;
        focus_.lane = keep.lane;
    }
    return s;
}

Stop DebugSession::focusBlock(std::uint64_t block)
{
    if (block >= blocks())
        refuse(fmt::format("block {}: the grid has {} blocks", block, blocks()));
    const auto& begins = observer_->blockBegins();
    if (!ended() && block == launch_->runner().linear()) {
        focus_.block = block;
        return stop_;
    }
    if (block < begins.size() && begins[block] != ~std::uint64_t(0)) {
        Stop at;
        at.reason = StopReason::BlockBegin;
        at.position = begins[block];
        at.block = block;
        return settle(land(at));
    }
    if (ended())
        refuse(fmt::format("block {} was not reached: the launch ended before it", block));
    observer_->pauseAtBlock(block);
    observer_->quiet(true);
    return settle(runToStop());
}

void DebugSession::focusWarp(std::uint32_t warp)
{
    if (warp >= warpsPerBlock())
        refuse(fmt::format("warp {}: the block has {} warps", warp, warpsPerBlock()));
    focus_.warp = warp;
}

void DebugSession::focusLane(std::uint32_t lane)
{
    if (lane >= 32)
        refuse(fmt::format("lane {}: a warp has 32 lanes", lane));
    focus_.lane = lane;
}

void DebugSession::focusThread(std::uint64_t thread)
{
    const std::uint64_t threads = launch_->config().block.volume();
    if (thread >= threads)
        refuse(fmt::format("thread {}: the block has {} threads", thread, threads));
    focus_.warp = std::uint32_t(thread / 32);
    focus_.lane = std::uint32_t(thread % 32);
}

std::uint16_t DebugSession::fileIndex(const std::string& file) const
{
    if (file.empty())
        return mainFile(function());
    const auto& files = launch_->module().files;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (files[i] == file || baseName(files[i]) == file || baseName(files[i]) == baseName(file))
            return std::uint16_t(i);
    if (file == sourceName_ || baseName(file) == baseName(sourceName_))
        return mainFile(function());
    refuse(fmt::format("no source file '{}' in the kernel", file));
}

// Where a line begins: its instructions that follow one of another line, and those a
// branch jumps to (a loop's head).
std::vector<std::uint32_t> DebugSession::linePcs(std::uint16_t file, std::uint32_t line) const
{
    const auto& code = function().code;
    std::vector<std::uint8_t> target(code.size(), 0);
    for (const Instr& in : code)
        if (in.ctrl == Ctrl::Bra && in.target < code.size())
            target[in.target] = 1;
    std::vector<std::uint32_t> pcs;
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
        if (code[pc].line != line || code[pc].file != file)
            continue;
        const bool first = pc == 0 || code[pc - 1].line != line || code[pc - 1].file != file;
        if (first || target[pc])
            pcs.push_back(pc);
    }
    return pcs;
}

BreakpointInfo DebugSession::addBreakpoint(const BreakpointSpec& spec)
{
    const auto& code = function().code;
    std::uint16_t file = 0;
    std::uint32_t line = 0;
    std::vector<std::uint32_t> pcs;
    if (spec.pc) { // one instruction: it stops there whatever the line it belongs to
        if (*spec.pc >= code.size())
            refuse(fmt::format("no instruction at pc {}: the kernel has {}", *spec.pc, code.size()));
        file = code[*spec.pc].file;
        line = code[*spec.pc].line;
        pcs = {*spec.pc};
    } else {
        file = fileIndex(spec.file);
        // The first line at or after the one asked for that has code, as a debugger places it.
        for (const Instr& in : code)
            if (in.file == file && in.line >= spec.line && (line == 0 || in.line < line))
                line = in.line;
        if (line == 0 || line > spec.line + 50)
            refuse(fmt::format("no code at line {} of {}", spec.line, launch_->module().fileName(file)));
        pcs = linePcs(file, line);
    }
    ArmedBreakpoint b;
    b.info.id = nextBreakpoint_;
    b.info.spec = spec;
    b.info.line = line;
    b.info.file = launch_->module().fileName(file);
    b.pcs = std::move(pcs);
    if (!spec.condition.empty())
        for (const std::uint32_t pc : b.pcs)
            b.conditions.push_back(
                std::make_unique<LaneExpression>(spec.condition, function(), pc, launch_->buffers(), sources_.get()));
    ++nextBreakpoint_;
    observer_->breakpoints().push_back(std::move(b));
    observer_->rebuildBreakAt();
    return observer_->breakpoints().back().info;
}

void DebugSession::removeBreakpoint(int id)
{
    auto& list = observer_->breakpoints();
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& b) { return b.info.id == id; });
    if (it == list.end())
        refuse(fmt::format("no breakpoint {}", id));
    list.erase(it);
    observer_->rebuildBreakAt();
}

std::vector<BreakpointInfo> DebugSession::breakpoints() const
{
    std::vector<BreakpointInfo> out;
    for (const auto& b : observer_->breakpoints())
        out.push_back(b.info);
    return out;
}

WatchInfo DebugSession::addWatch(const WatchSpec& spec)
{
    ArmedWatch w;
    w.info.id = nextWatch_;
    w.info.spec = spec;
    if (spec.buffer.empty()) {
        w.space = Space::Shared;
        w.type = spec.type;
        w.size = std::uint32_t(sizeOf(spec.type));
        w.address = spec.index;
        if (spec.index % w.size || spec.index + w.size > sharedBytes())
            refuse(fmt::format("shared {}: outside the block's {} bytes of shared memory, or not aligned to {}",
                               spec.index, sharedBytes(), w.size));
    } else {
        const auto& bufs = launch_->buffers();
        const auto b
            = std::find_if(bufs.begin(), bufs.end(), [&](const BufferArg& a) { return a.name == spec.buffer; });
        if (b == bufs.end())
            refuse(fmt::format("no buffer '{}'", spec.buffer));
        if (spec.index >= b->data.count())
            refuse(fmt::format("{}({}): the buffer has {} elements", spec.buffer, spec.index, b->data.count()));
        w.type = b->data.dtype();
        w.size = std::uint32_t(kw::sizeOf(w.type));
        w.host = reinterpret_cast<const std::uint8_t*>(b->data.data()) + spec.index * w.size;
        const auto& regions = launch_->state().mem.regions();
        const auto r = std::find_if(regions.begin(), regions.end(), [&](const MemRegion& m) {
            return m.host == reinterpret_cast<const std::uint8_t*>(b->data.data());
        });
        if (r == regions.end())
            refuse(fmt::format("buffer '{}' is not in the launch's memory", spec.buffer));
        w.space = Space::Global;
        w.address = r->base + spec.index * w.size;
    }
    w.last = observer_->watchValue(w);
    ++nextWatch_;
    observer_->watches().push_back(std::move(w));
    observer_->reattach();
    return observer_->watches().back().info;
}

void DebugSession::removeWatch(int id)
{
    auto& list = observer_->watches();
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& w) { return w.info.id == id; });
    if (it == list.end())
        refuse(fmt::format("no watchpoint {}", id));
    list.erase(it);
    observer_->reattach();
}

std::vector<WatchInfo> DebugSession::watches() const
{
    std::vector<WatchInfo> out;
    for (const auto& w : observer_->watches())
        out.push_back(w.info);
    return out;
}

void DebugSession::armMotion(Motion motion)
{
    const std::uint64_t block = focus_.block;
    const std::uint32_t warp = focus_.warp;
    const Warp& focused = focusedWarp();
    const std::uint32_t pc = focused.pc;
    const std::uint32_t line = pc < function().code.size() ? function().code[pc].line : 0;
    const std::size_t depth = function().callStack(pc).size();
    const BlockRunner& runner = launch_->runner();
    const Function& f = function();
    // The focused warp has no lanes left: the motion ends at the next instruction of the block.
    auto gone = [&runner, warp]() {
        const Warp& w = runner.warps()[warp];
        return (w.exited & w.exists) == w.exists;
    };
    auto mine = [&runner, block, warp](const Warp& w) { return runner.linear() == block && w.warpId == warp; };
    observer_->stopWhenBlockEnds(block);
    switch (motion) {
    case Motion::StepInstruction: {
        // A warp that was not the one stopped has not been told of its next instruction
        // yet: that one executes first.
        auto first = std::make_shared<bool>(!focused.announced);
        observer_->setMotion([=](const Warp& w, const Instr&, std::uint32_t) -> std::optional<StopReason> {
            if (mine(w))
                return std::exchange(*first, false) ? std::nullopt : std::optional(StopReason::Step);
            if (gone())
                return StopReason::WarpExited;
            return std::nullopt;
        });
        break;
    }
    case Motion::Step:
    case Motion::Next:
    case Motion::Finish: {
        observer_->setMotion([=, &f](const Warp& w, const Instr& in, std::uint32_t) -> std::optional<StopReason> {
            if (!mine(w))
                return gone() ? std::optional(StopReason::WarpExited) : std::nullopt;
            if (in.line == 0)
                return std::nullopt;
            const std::size_t d = f.callStack(w.pc).size();
            const bool arrived = motion == Motion::Step ? in.line != line
                : motion == Motion::Next                ? d <= depth && (in.line != line || d < depth)
                                                        : d < depth;
            return arrived ? std::optional(StopReason::Step) : std::nullopt;
        });
        break;
    }
    case Motion::Reconverge: {
        auto diverged = std::make_shared<bool>((focused.mask | (focused.exists & focused.exited)) != focused.exists);
        observer_->setMotion([=](const Warp& w, const Instr&, std::uint32_t) -> std::optional<StopReason> {
            if (!mine(w))
                return gone() ? std::optional(StopReason::WarpExited) : std::nullopt;
            const std::uint32_t live = w.exists & ~w.exited;
            if (w.mask != live)
                *diverged = true;
            else if (*diverged)
                return StopReason::Reconverged;
            return std::nullopt;
        });
        break;
    }
    case Motion::Barrier: // to the barrier's release, unless a breakpoint or watch is hit on the way
        observer_->pauseAtBarrierOf(block);
        break;
    case Motion::Continue: observer_->stopWhenBlockEnds(std::nullopt); break;
    default: break;
    }
}

void DebugSession::checkResumable(Motion motion) const
{
    if (motion == Motion::ReverseStep || motion == Motion::ReverseContinue)
        return;
    if (ended())
        refuse(stop_.reason == StopReason::Fault
                   ? "the launch stopped at a fault; reverse-step, reverse-continue or goto go back"
                   : "the launch has finished; reverse-step, reverse-continue or goto go back");
    if (focus_.block != launch_->runner().linear())
        refuse(fmt::format("block {} is not the block under way ({}): `block {}` goes there first", focus_.block,
                           launch_->runner().linear(), focus_.block));
    if (motion == Motion::Finish && function().callStack(focusedWarp().pc).size() <= 1)
        refuse("finish: the warp is in the kernel itself, not in an inlined device function");
}

Stop DebugSession::resume(Motion motion)
{
    std::optional<Interrupted> paused = std::exchange(interrupted_, std::nullopt);
    std::optional<ReverseSearch> pausedBack = std::exchange(reverse_, std::nullopt);
    if (motion == Motion::ReverseStep || motion == Motion::ReverseStepInstruction)
        return reverseStep(motion == Motion::ReverseStepInstruction, std::move(pausedBack));
    if (motion == Motion::ReverseContinue)
        return reverseContinue(std::move(pausedBack));
    checkResumable(motion);
    observer_->clearMotions();
    const bool goOn = paused && paused->motion == motion && paused->position == launch_->position()
        && stop_.reason == StopReason::Paused && paused->focus.block == focus_.block
        && paused->focus.warp == focus_.warp;
    if (goOn)
        observer_->restoreMotions(std::move(paused->armed));
    else
        armMotion(motion);
    Stop s = runToStop(true);
    if (s.reason == StopReason::Paused && motion != Motion::Continue) {
        // A motion of the focused warp stays on it when paused (a continue shows the warp
        // about to run).
        s.block = focus_.block;
        s.warp = focus_.warp;
        s.lane = int(focus_.lane);
    }
    s = settle(s);
    if (interrupted_) {
        interrupted_->motion = motion;
        interrupted_->focus = focus_;
    }
    return s;
}

bool DebugSession::goesOn(const std::optional<ReverseSearch>& paused, Motion motion) const
{
    return paused && paused->motion == motion && paused->position == launch_->position()
        && stop_.reason == StopReason::Paused && paused->pausedFocus.block == focus_.block
        && paused->pausedFocus.warp == focus_.warp;
}

namespace {
const char* reverseName(Motion m)
{
    return m == Motion::ReverseStep           ? "reverse-step"
        : m == Motion::ReverseStepInstruction ? "reverse-stepi"
                                              : "reverse-continue";
}
} // namespace

Stop DebugSession::landBack(ReverseSearch& r, const Stop& at, bool goingOn)
{
    if (r.hits) // a pause forgot the hits after it: those before the landing count again
        observer_->restoreHits(*r.hits);
    if (!goingOn) {
        if (r.hits || at.position < stop_.position) // going back undoes the hits counted since
            observer_->forgetHitsAfter(at.position);
        rewind(at.position);
    } else { // on from the pause, the observer told of nothing: the run to the landing counts nothing
        observer_->forgetHitsAfter(at.position);
        attachObserver();
        observer_->quiet(true);
    }
    r.landing = at;
    if (!runTo(at.position))
        return pauseReverse(r,
                            fmt::format("paused going back ({}): the run again to position {} had come this far "
                                        "({} again goes on)",
                                        reverseName(r.motion), at.position, reverseName(r.motion)));
    return arrive(at);
}

Stop DebugSession::pauseReverse(ReverseSearch& r, std::string message)
{
    if (!r.hits)
        r.hits = observer_->hits();
    if (launch_->position() < stop_.position) // back before hits counted forwards: undone
        observer_->forgetHitsAfter(launch_->position());
    attachObserver();
    if (r.landing) // nothing judges the next instruction: no breakpoint stops there
        observer_->quiet(true);
    observer_->pauseAtNextIssue(StopReason::Paused, std::move(message));
    Stop s = runToStop();
    const std::vector<Stop>& recorded = observer_->recorded();
    r.found.insert(r.found.end(), recorded.begin(), recorded.end());
    observer_->clearMotions();
    observer_->record(false);
    // A warp's motion stays on its warp where its block runs (a search shows the warp about to run).
    if (r.motion != Motion::ReverseContinue && s.block == r.focus.block) {
        s.warp = r.focus.warp;
        s.lane = int(r.focus.lane);
    }
    s = settle(s);
    r.position = launch_->position();
    r.pausedFocus = focus_;
    reverse_ = std::move(r);
    return s;
}

DebugSession::ReverseSearch DebugSession::newSearch(Motion motion) const
{
    ReverseSearch r;
    r.motion = motion;
    r.focus = focus_;
    r.here = stop_.position;
    return r;
}

// The focused warp's line beginnings (or instructions) before here, found by running
// again from the checkpoint before its block began with a motion that notes them and
// never stops. Paused, it goes on from where the run again stands when asked again.
Stop DebugSession::reverseStep(bool instruction, std::optional<ReverseSearch> paused)
{
    const Motion motion = instruction ? Motion::ReverseStepInstruction : Motion::ReverseStep;
    const bool goOn = goesOn(paused, motion);
    ReverseSearch r = goOn ? std::move(*paused) : newSearch(motion);
    const std::uint64_t here = r.here;
    const std::uint64_t block = r.focus.block;
    const std::uint32_t warp = r.focus.warp;
    const Focus keep = r.focus;
    // Where the motion ends, once it is found; its warp keeps the focus.
    const auto landed = [&](Stop s) {
        s = settle(s);
        if (s.block == keep.block) {
            focus_.warp = keep.warp;
            focus_.lane = keep.lane;
        }
        return s;
    };
    if (goOn && r.landing) {
        const Stop s = landBack(r, *r.landing, true);
        return s.reason == StopReason::Paused ? s : landed(s);
    }
    {
        if (!goOn) {
            const auto& begins = observer_->blockBegins();
            rewind(block < begins.size() ? begins[block] : 0);
        }
        observer_->quiet(true);
        attachObserver();
        const BlockRunner& runner = launch_->runner();
        DebugObserver& obs = *observer_;
        observer_->setMotion([&](const Warp& w, const Instr& in, std::uint32_t) -> std::optional<StopReason> {
            if (runner.linear() != block || w.warpId != warp)
                return std::nullopt;
            if (instruction)
                r.starts.push_back(obs.position());
            else if (in.line != 0 && in.line != r.last)
                r.starts.push_back(obs.position());
            if (in.line != 0)
                r.last = in.line;
            return std::nullopt;
        });
        observer_->reattach(); // told of every instruction, for the motion
        if (!runTo(here))
            return pauseReverse(r,
                                fmt::format("paused going back ({}): the run again to position {} had come this far "
                                            "({} again goes on)",
                                            instruction ? "reverse-stepi" : "reverse-step", here,
                                            instruction ? "reverse-stepi" : "reverse-step"));
        observer_->clearMotions();
    }
    std::vector<std::uint64_t> starts = std::move(r.starts);
    std::erase_if(starts, [&](std::uint64_t p) { return p >= here; });
    if (instruction && starts.empty()) {
        Stop again = stop_;
        settle(land(again)); // where it stood
        focus_ = keep;
        refuse(fmt::format("reverse-stepi: warp {} of block {} has run no instruction before this one", warp, block));
    }
    Stop at;
    at.reason = starts.empty() ? StopReason::Entry : StopReason::Step;
    at.position = starts.empty() ? 0 : starts.back();
    at.block = block;
    at.warp = warp;
    const Stop s = landBack(r, at, false);
    return s.reason == StopReason::Paused && reverse_ ? s : landed(s);
}

// The stops the breakpoints and watches would have made before here, found by running
// again in recording mode from the nearest checkpoint, then from the one before it
// while none is found; the last of them. Paused, it goes on with the run again it
// interrupted when asked again.
Stop DebugSession::reverseContinue(std::optional<ReverseSearch> paused)
{
    bool goOn = goesOn(paused, Motion::ReverseContinue);
    ReverseSearch r = goOn ? std::move(*paused) : newSearch(Motion::ReverseContinue);
    const std::uint64_t here = r.here;
    const auto landed = [&](const Stop& at, bool goingOn) {
        const Stop s = landBack(r, at, goingOn);
        return s.reason == StopReason::Paused && reverse_ ? s : settle(s);
    };
    if (goOn && r.landing)
        return landed(*r.landing, true);
    std::vector<std::uint64_t> starts{0};
    for (const Checkpoint& c : checkpoints_)
        if (c.position < here)
            starts.push_back(c.position);
    std::size_t k = starts.size();
    if (goOn) {
        const auto at = std::find(starts.begin(), starts.end(), r.runFrom);
        goOn = at != starts.end() && r.runFrom <= r.position;
        if (goOn)
            k = std::size_t(at - starts.begin()) + 1;
    }
    while (k-- > 0) {
        if (!goOn) {
            rewind(starts[k]);
            attachObserver();
            observer_->refreshWatches();
            r.found.clear();
        } else
            attachObserver(); // on from where the pause left the run again, its watches as they were
        goOn = false;
        r.runFrom = starts[k];
        observer_->record(true);
        observer_->reattach();
        const std::uint64_t to = k + 1 < starts.size() ? starts[k + 1] : here;
        if (!runTo(to))
            return pauseReverse(
                r,
                to < here ? fmt::format("paused going back (reverse-continue): no breakpoint or watch is hit from "
                                        "position {} to {}; from here to {} was not looked at yet "
                                        "(reverse-continue again goes on)",
                                        to, here, to)
                          : fmt::format("paused going back (reverse-continue): from here to position {} was not "
                                        "looked at yet (reverse-continue again goes on)",
                                        here));
        std::vector<Stop> found = std::move(r.found);
        found.insert(found.end(), observer_->recorded().begin(), observer_->recorded().end());
        observer_->record(false);
        std::erase_if(found, [&](const Stop& s) { return s.position >= here; });
        if (!found.empty())
            return landed(found.back(), false);
        r.found.clear();
    }
    Stop at;
    at.reason = StopReason::Entry;
    return landed(at, false);
}

WarpView DebugSession::warp() const
{
    const Warp& w = focusedWarp();
    WarpView v;
    v.block = launch_->runner().linear();
    v.warp = w.warpId;
    v.exists = w.exists;
    v.active = w.mask;
    const std::uint32_t exited = w.exited & w.exists;
    v.done = exited == w.exists;
    const std::uint32_t live = w.exists & ~exited;
    v.atBarrier = live && (w.atBar & live) == live;
    v.where = locate(w.pc);
    if (w.mask)
        v.groups.push_back({LaneGroup::State::Active, w.mask, locate(w.pc)});
    // Lanes waiting elsewhere, by where they go on.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> waiting; // pc, lanes
    for (std::uint32_t m = live & ~w.mask & ~w.atBar; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        auto it = std::find_if(waiting.begin(), waiting.end(), [&](const auto& p) { return p.first == w.lanePc[l]; });
        if (it == waiting.end())
            waiting.push_back({w.lanePc[l], 1u << l});
        else
            it->second |= 1u << l;
    }
    std::sort(waiting.begin(), waiting.end());
    for (const auto& [pc, lanes] : waiting)
        v.groups.push_back({LaneGroup::State::Diverged, lanes, locate(pc)});
    if (const std::uint32_t bar = w.atBar & live)
        v.groups.push_back({LaneGroup::State::AtBarrier, bar, locate(w.lanePc[__builtin_ctz(bar)] - 1)});
    if (exited)
        v.groups.push_back({LaneGroup::State::Exited, exited, {}});
    if (!w.mask && !v.done && v.atBarrier)
        v.where = v.groups.back().state == LaneGroup::State::Exited ? v.groups[v.groups.size() - 2].where
                                                                    : v.groups.back().where;
    return v;
}

std::vector<WarpView> DebugSession::warps() const
{
    std::vector<WarpView> out;
    DebugSession& self = const_cast<DebugSession&>(*this);
    const std::uint32_t keep = focus_.warp;
    for (std::uint32_t i = 0; i < warpsPerBlock(); ++i) {
        self.focus_.warp = i;
        out.push_back(warp());
    }
    self.focus_.warp = keep;
    return out;
}

std::vector<Frame> DebugSession::backtrace() const
{
    const std::uint32_t pc = focusedWarp().pc;
    std::vector<Frame> frames;
    const auto stack = function().callStack(pc);
    for (std::size_t i = 0; i < stack.size(); ++i) {
        Frame f;
        f.function = readableName(stack[i]->function);
        if (i == 0)
            f.where = locate(pc);
        else {
            f.where.file = launch_->module().fileName(stack[i - 1]->callFile);
            f.where.line = stack[i - 1]->callLine;
            f.where.function = f.function;
        }
        frames.push_back(std::move(f));
    }
    return frames;
}

std::vector<LaneValue> DebugSession::lanes(const std::string& expression) const
{
    const Warp& w = focusedWarp();
    const LaneExpression e(expression, function(), w.pc, launch_->buffers(), sources_.get());
    std::vector<LaneValue> out(32);
    for (int l = 0; l < 32; ++l) {
        if (!((w.exists >> l) & 1))
            continue;
        if (e.singleSource())
            out[l] = e.sourceValueOf(w, l);
        else if (const auto reg = e.singleRegister())
            out[l] = registerValue(function().registerType(*reg), w.reg(*reg)[l]);
        else {
            out[l].exists = true;
            out[l].number = e.evaluate(w, l);
            out[l].text = fmt::format("{}", out[l].number);
        }
    }
    return out;
}

namespace {

// A variable's view: its 32 lanes' values (or why none), and its parts: a struct's
// members and a small array's elements, each a view of its own.
SourceVariableView localView(const VisibleVariable& v, const Warp& w)
{
    SourceVariableView view;
    view.name = v.name;
    view.type = v.type().name;
    view.line = v.source->line;
    view.parameter = v.source->parameter;
    view.available = v.where != VisibleVariable::Where::Nowhere;
    view.scalar = isSourceNumber(v.type().kind, v.type().size);
    view.why = v.why;
    view.lanes.resize(32);
    for (int l = 0; l < 32; ++l) {
        if (!((w.exists >> l) & 1))
            continue;
        LaneValue& lv = view.lanes[std::size_t(l)];
        lv.exists = true;
        try {
            lv = sourceValue(v, w, l);
        } catch (const Error& e) {
            // No single value (unavailable here, an array, a struct): its text, never a number.
            lv.number = 0;
            lv.text = sourceText(v, w, l);
        }
    }
    if (!view.available || !expandable(v))
        return view;
    for (const VisibleVariable& m : parts(v)) {
        view.parts.push_back(localView(m, w));
        view.parts.back().parameter = false;
    }
    const dwarf::SourceType& t = v.type();
    if (t.kind == dwarf::SourceType::Kind::Array)
        for (std::uint64_t i = 0; i < t.count; ++i) {
            SourceVariableView e;
            e.name = fmt::format("{}({})", v.name, i);
            e.type = t.name.substr(0, t.name.find('['));
            e.line = view.line;
            e.scalar = true;
            e.lanes.resize(32);
            for (int l = 0; l < 32; ++l) {
                if (!((w.exists >> l) & 1))
                    continue;
                try {
                    e.lanes[std::size_t(l)] = sourceElement(v, w, l, double(i));
                } catch (const Error& err) {
                    e.lanes[std::size_t(l)] = {true, 0, err.what()};
                }
            }
            view.parts.push_back(std::move(e));
        }
    return view;
}

} // namespace

std::vector<SourceVariableView> DebugSession::locals() const
{
    std::vector<SourceVariableView> out;
    if (!sources_)
        return out;
    const Warp& w = focusedWarp();
    for (const VisibleVariable& v : sources_->at(w.pc))
        out.push_back(localView(v, w));
    return out;
}

LaneValue DebugSession::evaluate(const std::string& expression) const
{
    const LaneValue v = lanes(expression).at(focus_.lane);
    if (!v.exists)
        refuse(fmt::format("lane {} of warp {} is not a thread of the block", focus_.lane, focus_.warp));
    return v;
}

std::uint32_t DebugSession::sharedBytes() const { return launch_->state().sharedSize; }

std::vector<SharedWord> DebugSession::shared(DType type, std::uint32_t offset, std::uint32_t count) const
{
    const std::uint32_t size = std::uint32_t(kw::sizeOf(type));
    const std::uint32_t total = sharedBytes();
    if (offset % size)
        refuse(fmt::format("shared: offset {} is not a multiple of {} bytes", offset, size));
    if (offset > total || std::uint64_t(count) * size > total - offset)
        refuse(
            fmt::format("shared: {} words of {} bytes from {} pass the block's {} bytes", count, size, offset, total));
    const std::uint8_t* base = launch_->runner().block().shared;
    std::vector<SharedWord> out;
    for (std::uint32_t i = 0; i < count; ++i) {
        SharedWord w;
        w.offset = offset + i * size;
        w.bank = (w.offset / 4) % 32;
        w.value = loadAsDouble(type, base + w.offset);
        w.text = type == DType::F32 ? fmt::format("{}", float(w.value)) : fmt::format("{}", w.value);
        if (const auto writer = launch_->sharedWriters().lastWriter(w.offset, size)) {
            SharedWriter& sw = w.lastWriter.emplace();
            sw.warp = writer->warp;
            sw.lane = writer->lane;
            sw.thread = std::uint64_t(writer->warp) * 32 + writer->lane;
            sw.where = locate(writer->pc);
        }
        out.push_back(std::move(w));
    }
    return out;
}

SharedMemoryView DebugSession::sharedMemory(DType type) const
{
    SharedMemoryView v;
    v.block = launch_->runner().linear();
    v.bytes = sharedBytes();
    v.type = type;
    v.words = shared(type, 0, v.bytes / std::uint32_t(kw::sizeOf(type)));
    return v;
}

namespace {

// Each call's text split into lines, each line with the thread that printed it.
DeviceOutput deviceOutput(const BlockPrintf& printed, bool complete)
{
    DeviceOutput o{printed.block, complete, printed.text, {}};
    for (std::size_t r = 0; r < printed.records.size(); ++r) {
        const std::size_t end = r + 1 < printed.records.size() ? printed.records[r + 1].begin : printed.text.size();
        const std::string_view call
            = std::string_view(printed.text).substr(printed.records[r].begin, end - printed.records[r].begin);
        std::vector<std::string_view> lines = splitLines(call);
        if (call.ends_with('\n'))
            lines.pop_back(); // the empty rest after the last newline
        for (const std::string_view line : lines)
            o.lines.push_back({printed.records[r].thread, std::string(line)});
    }
    return o;
}

} // namespace

std::vector<DeviceOutput> DebugSession::output() const
{
    std::vector<DeviceOutput> out;
    const BlockRunner& runner = launch_->runner();
    for (const BlockPrintf& printed : runner.printfOutput())
        out.push_back(deviceOutput(printed, true));
    if (!runner.block().printf.empty() && !(ended() && stop_.reason == StopReason::Finished))
        out.push_back(deviceOutput(runner.block().printf, false));
    return out;
}

std::uint64_t DebugSession::printedBytes() const
{
    return launch_->state().printfBytes.load(std::memory_order_relaxed);
}

const LaunchConfig& DebugSession::launchConfig() const { return launch_->config(); }

bool DebugSession::outputTruncated() const { return launch_->state().printfTruncated.load(std::memory_order_relaxed); }

std::string DebugSession::sourceLine(const std::string& file, std::uint32_t line) const
{
    if (line == 0 || source_.empty() || baseName(file) != baseName(sourceName_.empty() ? file : sourceName_))
        return {};
    const auto lines = splitLines(source_);
    return line <= lines.size() ? std::string(lines[line - 1]) : std::string();
}

} // namespace kw::debug
