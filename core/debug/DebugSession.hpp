#pragma once
// A debugger over the PTX simulator: one launch, run block after block on this thread,
// stopped before an instruction and shown as values (DebugTypes.hpp). A client focuses
// a block, warp and lane, places breakpoints (a line, a condition per lane, a hit count,
// first lane or all lanes) and watchpoints, moves the launch (continue, step, stepi,
// next, finish, barrier, reconverge, their reverse forms) and reads the state where it
// stopped (a warp's lanes and their divergence, registers and expressions per lane,
// shared memory, the warps of the block, the inlined call frames).
//
// Every run of the launch is the same run: a position (the warp-level instructions
// executed since the launch began) names one state, and an earlier one is reached by
// running again from the start to it. Nothing is printed here: the command language
// (DebugConsole) and later clients (the window, a Debug Adapter Protocol server) format
// what it returns. Errors in what a client asks for throw kw::Error(Usage).
#include "debug/DebugLaunch.hpp"
#include "debug/DebugObserver.hpp"
#include "debug/DebugTypes.hpp"
#include "debug/SourceVariables.hpp"
#include "launch/CheckTool.hpp"
#include "launch/LaunchTypes.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kw {
class Compiler;
struct Document;
} // namespace kw

namespace kw::debug {

enum class Motion : std::uint8_t {
    Continue,               // to the next breakpoint or watch
    Step,                   // the focused warp to its next source line
    StepInstruction,        // the focused warp's next instruction
    Next,                   // as Step, over inlined device function calls
    Finish,                 // out of the inlined device function
    Barrier,                // to the focused block's next barrier release
    Reconverge,             // until the focused warp's lanes run together again
    ReverseStep,            // back to where the focused warp began its line (or the line before)
    ReverseStepInstruction, // back one instruction of the focused warp
    ReverseContinue,        // back to the last breakpoint or watch hit before here
};

struct DebugOptions {
    CheckTool check = CheckTool::None; // the simulator's checks, their findings as stops
    double timeLimitSeconds = 0;       // per resumption; 0: the document's
    std::string step;                  // a document of steps: the launch step to debug (docs/debugger.md),
                                       // "3.1@4": its launch in pass 4 of the repeat around it
    std::size_t pass = 0;              // ... the pass, when `step` does not name one (0: the first)
    bool optimized = false;            // compile without -G: the optimized code, PTX registers only
};

class DebugSession {
public:
    // Compiles a document of one launch (with -G, or line info only when `optimized`)
    // and sets its launch up, stopped
    // before its first instruction. Throws kw::Error: a document that does not compile
    // (the diagnostics in the message), or whose launch cannot be set up.
    static std::unique_ptr<DebugSession> fromDocument(const Document& doc, Compiler& compiler,
                                                      const DebugOptions& options = {});

    // A compiled kernel and its launch, as the engine prepares them. `source` is the
    // kernel's source text (for the lines a client shows), `sourceName` its file name.
    DebugSession(const KernelImage& kernel, std::vector<BufferArg> buffers, std::vector<LaunchArg> args,
                 LaunchConfig config, std::string source = {}, std::string sourceName = {});
    ~DebugSession();
    DebugSession(const DebugSession&) = delete;
    DebugSession& operator=(const DebugSession&) = delete;

    const Stop& stop() const { return stop_; }
    // Every block has run, or a fault stopped the launch: only reverse motions go on.
    bool ended() const;
    const Focus& focus() const { return focus_; }
    std::uint64_t position() const;
    std::uint64_t blocks() const;
    std::uint32_t warpsPerBlock() const;

    // The block's first instruction, running on to it or again from the start.
    Stop focusBlock(std::uint64_t block);
    void focusWarp(std::uint32_t warp);
    void focusLane(std::uint32_t lane);
    // Thread `thread` of the block (linear, x fastest): its warp and lane.
    void focusThread(std::uint64_t thread);

    BreakpointInfo addBreakpoint(const BreakpointSpec& spec);
    void removeBreakpoint(int id);
    std::vector<BreakpointInfo> breakpoints() const;
    WatchInfo addWatch(const WatchSpec& spec);
    void removeWatch(int id);
    std::vector<WatchInfo> watches() const;

    // A forward motion that a pause interrupted, asked again with the same focus where the
    // pause left it, goes on as if it had never stopped (a `next` still ends at the line
    // after the one it began on); any other motion, or a change of focus, forgets it.
    Stop resume(Motion motion);
    // Throws kw::Error(Usage) where resume(motion) would refuse before running (the
    // launch has ended, the focused block is not the one under way).
    void checkResumable(Motion motion) const;
    // Called between slices of a forward motion (every 2^16 warp-level instructions), on
    // the thread that runs it: a client's chance to show what the kernel printed so far.
    void whileRunning(std::function<void()> f) { whileRunning_ = std::move(f); }
    // From any thread: the motion under way, forwards or backwards (the re-execution of a
    // reverse motion, `goto`), stops before its next instruction (StopReason::Paused):
    // every run is sliced and tests this between slices. Asked while none runs, the next
    // one stops at once, unless takeInterrupt() takes it back first.
    void interrupt() { interrupt_.store(true); }
    // Whether an interrupt was asked and no motion has taken it yet; clears it.
    bool takeInterrupt() { return interrupt_.exchange(false); }
    // The state at `position` (an earlier stop's), by running again from the start.
    Stop goTo(std::uint64_t position);
    // Checkpoints (the memory as a block begins) at most every `instructions` warp-level
    // instructions: going back runs from the nearest one. 2^20 by default (about 0.15 s
    // of simulation); the memory they take is bounded (256 MiB).
    void setCheckpointSpacing(std::uint64_t instructions)
    {
        checkpointSpacing_ = std::max<std::uint64_t>(1, instructions);
    }
    std::size_t checkpoints() const { return checkpoints_.size(); }

    // What the focused warp is doing; every warp of the focused block.
    WarpView warp() const;
    std::vector<WarpView> warps() const;
    std::vector<Frame> backtrace() const;
    // An expression (or a PTX register) for each of the focused warp's 32 lanes.
    std::vector<LaneValue> lanes(const std::string& expression) const;
    // ... for the focused lane.
    LaneValue evaluate(const std::string& expression) const;
    // The source's variables in scope at the focused warp's next instruction, each with
    // its 32 lanes' values (empty without -G).
    std::vector<SourceVariableView> locals() const;
    // Whether the kernel was compiled with -G and its variables can be read by name.
    bool hasSourceVariables() const { return sources_ != nullptr; }
    // Those variables' places at each pc (null without -G).
    const SourceVariables* sourceVariables() const { return sources_.get(); }
    // "-G: source variables by name", or why registers only.
    const std::string& variablesMode() const { return variablesMode_; }
    // The focused block's shared memory as `count` words of `type` from byte `offset`.
    // Each word with its bank and its last writer in the block.
    std::vector<SharedWord> shared(DType type, std::uint32_t offset, std::uint32_t count) const;
    // ... all of it.
    SharedMemoryView sharedMemory(DType type) const;
    std::uint32_t sharedBytes() const;
    Location locate(std::uint32_t pc) const;
    // How many instructions the kernel has as the simulator runs it: pcs 0 to this less one.
    std::uint32_t instructions() const;
    // Line `line` of the kernel's source when `file` is the kernel's file, else empty.
    std::string sourceLine(const std::string& file, std::uint32_t line) const;
    // Device printf output so far: the blocks that ran, in order, then the block under
    // way as far as it has come. Truncated: the launch's printf buffer was full and later
    // output was dropped, as a GPU drops it.
    std::vector<DeviceOutput> output() const;
    bool outputTruncated() const;
    // What device printf has taken of the launch's buffer so far: a change says there is
    // new output (cheaper than output()).
    std::uint64_t printedBytes() const;
    // The launch's grid and block, as the document gave them.
    const LaunchConfig& launchConfig() const;
    // The buffers as they are now (the launch's memory).
    const std::vector<BufferArg>& buffers() const;
    const std::vector<std::string>& warnings() const;
    // The kernel as the simulator runs it (its instructions, register names, frames).
    const sim::Function& function() const;

private:
    std::unique_ptr<DebugLaunch> launch_;
    std::unique_ptr<DebugObserver> observer_;
    std::string source_, sourceName_;
    std::unique_ptr<SourceVariables> sources_; // from the DWARF of -G, null without
    std::string variablesMode_;
    double timeLimitSeconds_ = 10;
    std::atomic<bool> interrupt_{false};
    std::function<void()> whileRunning_;
    // A forward motion a pause interrupted: its armed state, and the focus and position
    // the pause left, so that the same motion asked there again goes on with it.
    struct Interrupted {
        Motion motion;
        Focus focus;
        std::uint64_t position = 0;
        DebugObserver::Armed armed;
    };
    std::optional<Interrupted> interrupted_;
    // A reverse motion a pause interrupted: its search so far, and where the pause left
    // the launch and the focus, so that the same motion asked there again goes on with it.
    struct ReverseSearch {
        Motion motion;
        Focus focus;                             // as the motion began: the warp it is about
        std::uint64_t here = 0;                  // where the motion began
        std::uint64_t position = 0;              // where the pause left the launch
        Focus pausedFocus;                       // ... and the focus
        std::vector<std::uint64_t> starts;       // reverse-step(i): the warp's beginnings noted so far
        std::uint32_t last = 0;                  // ... and the line of its last instruction
        std::uint64_t runFrom = 0;               // reverse-continue: where the interrupted run again began
        std::vector<Stop> found;                 // ... and the hits it recorded
        std::optional<Stop> landing;             // found: the stop it is running again to
        std::optional<DebugObserver::Hits> hits; // the hits counted where it began (a pause forgets some)
    };
    std::optional<ReverseSearch> reverse_;
    ReverseSearch newSearch(Motion motion) const; // a reverse motion beginning at the stop
    // A paused reverse motion `motion` goes on from where the launch stands.
    bool goesOn(const std::optional<ReverseSearch>& paused, Motion motion) const;
    // Where a reverse motion's run again was paused: the stop before the next instruction,
    // which the armed motion and recording judge first (they are disarmed after). The
    // search is kept in reverse_.
    Stop pauseReverse(ReverseSearch& r, std::string message);
    // The reverse motion's end `at`, run again to from the checkpoint before it (or on from
    // where its pause left it, `goingOn`), paused as its search is.
    Stop landBack(ReverseSearch& r, const Stop& at, bool goingOn);
    Stop stop_;
    Focus focus_;
    int nextBreakpoint_ = 1, nextWatch_ = 1;
    // The memory as some blocks began, so that going back runs from the nearest one
    // rather than from the launch's start: one at most every checkpointSpacing_
    // instructions, within kCheckpointBytes in all.
    std::vector<Checkpoint> checkpoints_;
    std::size_t checkpointBytes_ = 0;
    std::uint64_t checkpointSpacing_ = std::uint64_t(1) << 20;
    static constexpr std::size_t kCheckpointBytes = std::size_t(256) << 20;

    void keepCheckpoint(std::uint64_t block, std::uint64_t position);
    // Runs again from the latest checkpoint at or before `position` (the start when
    // none), the debugger's observer detached and its history forgotten.
    void rewind(std::uint64_t position);
    // On by budgets to `position`, or to where the launch ends before it, in slices;
    // false when a pause was asked between two (the launch stands where the slice ended).
    bool runTo(std::uint64_t position);
    // After each slice of a run: the client's callback (whileRunning), then whether a
    // pause was asked (taken). The one test every run makes, forwards or backwards.
    bool sliceEndsInPause();
    // The stop before the next instruction from where a paused run stands.
    Stop pausedHere(std::string message = {});
    void attachObserver();

    const sim::Warp& focusedWarp() const;
    // Runs until the observer asks for a stop, the launch finishes or faults (or, when
    // interruptible, interrupt() is called).
    Stop runToStop(bool interruptible = false);
    // Again from the start to `position`, stopping there for `why`.
    Stop land(const Stop& at);
    // The stop `at` made where the launch stands, just before it.
    Stop arrive(const Stop& at);
    // The focus a stop moves to, and the stop kept.
    Stop settle(Stop s);
    std::vector<std::uint32_t> linePcs(std::uint16_t file, std::uint32_t line) const;
    std::uint16_t fileIndex(const std::string& file) const;
    void armMotion(Motion motion);
    // Back to where the focused warp began its line, or (`instruction`) to its last instruction.
    Stop reverseStep(bool instruction, std::optional<ReverseSearch> paused);
    Stop reverseContinue(std::optional<ReverseSearch> paused);
};

} // namespace kw::debug
