#pragma once
// Runs a document of several steps (Document::steps, version 2) on one backend. The
// buffers are uploaded once and stay on the device (launch/ResidentBuffers): launches,
// copies and fills act on them there, a swap exchanges two buffers' names, a repeat
// loops over its inner steps. Only what is looked at comes back: the buffers a step's
// checks or a loop's condition read, after that step, and every buffer at the end.
// A straight loop (run/StraightLoop) runs its first pass step by step, then the rest as
// recorded passes replayed as a whole (a CUDA graph on a GPU), unless run.graph is off.
#include "compile/KernelSignature.hpp"
#include "doc/Document.hpp"
#include "doc/PreparedRun.hpp"
#include "launch/Backend.hpp"
#include "launch/ResidentBuffers.hpp"
#include "launch/RunResult.hpp"
#include "run/StepProgress.hpp"
#include "util/Deadline.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kw {

// A kernel of the document, compiled.
struct CompiledKernel {
    KernelImage image;
    std::optional<KernelSignature> signature; // none when overloads make it ambiguous
};

// A launch step held before it runs, as a debugger takes it over: its kernel, every
// document buffer's contents at that moment (document order, by the names they have
// then), its arguments (indices into those buffers) and its launch.
struct HeldLaunch {
    std::string path;
    CompiledKernel kernel;
    std::vector<BufferArg> buffers;
    std::vector<LaunchArg> args;
    LaunchConfig config;
};

class SequenceRun {
public:
    // `kernels` by the name the document gives them; `shared` is what every launch has in
    // common (printf buffer, time limit, check tool). `prepared` holds the initial buffers.
    SequenceRun(const Document& doc, std::map<std::string, CompiledKernel> kernels, PreparedRun prepared,
                Backend& backend, const LaunchConfig& shared);
    ~SequenceRun();
    SequenceRun(const SequenceRun&) = delete;
    SequenceRun& operator=(const SequenceRun&) = delete;

    // Keeps every buffer after the steps `paths` names ("*": all) in their
    // StepResult::buffers, at most `limitBytes` in all; the steps past it are named in a warning.
    void keepBuffersAfter(const std::vector<std::string>& paths, std::uint64_t limitBytes);
    // Called with a step's path as it begins a run (StepProgress: not for every pass).
    void onStep(StepProgress::Callback callback) { progress_ = StepProgress(std::move(callback)); }

    // Fills the result's steps, printf, fault, findings, warnings, checks, timings and
    // buffers. A document error found on the way (a copy outside its buffer, a bad count)
    // throws kw::Error(Document) naming the step's field.
    void run(RunResult& result);
    // run() stops before the launch of step `step` (its path, "2" or "3.1", or its name)
    // in its run number `pass` (1: the first; in a repeat, the pass), and keeps that
    // launch in held(). Repeats then run pass by pass, none replayed as a recording.
    void holdBefore(std::string step, std::size_t pass = 1)
    {
        holdAt_ = std::move(step);
        holdPass_ = pass;
    }
    const std::optional<HeldLaunch>& held() const { return held_; }

private:
    struct BufferRead {
        SequenceRun* run = nullptr;
        std::size_t buffer = 0;
    };
    static double readElement(void* userData, double j);

    void runList(const std::vector<StepSpec>& steps, const std::string& field, const std::string& path);
    void runStep(const StepSpec& step, const std::string& field, const std::string& path);
    void launchStep(const StepSpec& step, const std::string& field, StepResult& r);
    // What a step does, evaluated now, on the resident buffers as named now.
    ResidentOp planLaunch(const StepSpec& step, const std::string& field, StepResult& r);
    ResidentOp planCopy(const StepSpec& step, const std::string& field);
    ResidentOp planFill(const StepSpec& step, const std::string& field);
    void copyStep(const StepSpec& step, const std::string& field);
    void fillStep(const StepSpec& step, const std::string& field);
    void swapStep(const StepSpec& step, const std::string& field);
    void repeatStep(const StepSpec& step, const std::string& field, const std::string& path, StepResult& r);
    BufferResult bufferNow(std::size_t index);
    // A backend's message with each "buffer 'NAME'" under the name the buffer has now
    // (after swaps), not the one it was uploaded under.
    std::string currentNames(const std::string& message) const;
    void keepBuffers(StepResult& r);
    // Whether the buffers after a step inside loop `loopPath` are kept.
    bool keepsInside(const std::string& loopPath) const;

    // The recorded passes of a straight loop (run/StraightLoop), from pass `first`.
    struct Planned {
        std::vector<ResidentOp> ops;
        std::vector<std::size_t> launchSteps; // result.steps index of each launch op, in order
    };
    // One pass's ops; its swaps take effect on the names as they would running it.
    void planPass(const StepSpec& loop, const std::string& field, const std::string& path, std::size_t pass,
                  Planned& into);
    void runRecorded(const StepSpec& loop, const std::string& field, const std::string& path, StepResult& r,
                     std::size_t first, std::size_t passes, bool samePasses, std::size_t opsPerPass);
    // Replays `pass` `times` times in batches that end at the deadline; false when it stopped the run.
    bool replay(RecordedPass& pass, const Planned& planned, std::size_t times, std::size_t passesEach,
                const StepSpec& loop, const std::string& path, std::size_t firstPass);
    std::vector<CheckResult> checksNow(const std::vector<CheckSpec>& checks, const std::string& field);

    std::size_t bufferIndex(const std::string& name, const std::string& field) const;
    std::size_t wholeNumber(const std::string& text, const std::string& field, std::size_t otherwise) const;
    // Buffer `index`'s contents now, read back once per change of the device's state.
    const HostBuffer& current(std::size_t index);
    void changed() { ++generation_; }
    void stop(const std::string& why);
    // How a loop ran, for the warnings: once per step, however often it runs.
    void note(const std::string& path, const std::string& text);
    bool halted() const { return halted_; }

    const Document& doc_;
    std::map<std::string, CompiledKernel> kernels_;
    PreparedRun prepared_;
    Backend& backend_;
    LaunchConfig shared_;
    Deadline deadline_;
    RunResult* result_ = nullptr;
    std::unique_ptr<ResidentBuffers> device_;
    std::vector<std::size_t> resident_; // document buffer -> resident buffer (swaps exchange them)
    std::vector<BufferRead> readers_;   // user data of the buffers' functions in expressions
    std::vector<HostBuffer> cache_;     // buffers read back, valid while cachedAt_ == generation_
    std::vector<std::uint64_t> cachedAt_;
    std::uint64_t generation_ = 1;
    std::vector<HostBuffer> initial_;              // for `<name>_in` in checks, when they use it
    std::map<std::string, std::size_t> stepIndex_; // path -> result.steps
    std::set<std::string> checkedArgs_;            // launch steps whose arguments were cross-checked
    VariableScope scope_;                          // variables, pass indices, buffer reads
    double kernelMs_ = 0;                          // every launch's kernel time so far
    bool halted_ = false;
    StepProgress progress_;
    std::set<std::string> keep_; // step paths whose buffers are kept
    bool keepAll_ = false;
    std::uint64_t keepLimit_ = 0, kept_ = 0;
    std::vector<std::string> leftOut_;        // steps whose buffers were past the limit
    std::set<std::string> printing_;          // kernels that call printf
    std::set<std::string> noted_;             // loops whose way of running was noted
    std::string holdAt_;                      // holdBefore()
    std::size_t holdPass_ = 1, holdSeen_ = 0; // ... the run of it asked for, and its runs so far
    std::optional<HeldLaunch> held_;          // ... the launch held there
};

} // namespace kw
