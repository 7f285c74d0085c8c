#pragma once
// Runs a document of several steps (Document::steps, version 2) on one backend. The
// buffers are uploaded once and stay on the device (launch/ResidentBuffers): launches,
// copies and fills act on them there, a swap exchanges two buffers' names, a repeat
// loops over its inner steps. Only what is looked at comes back: the buffers a step's
// checks or a loop's condition read, after that step, and every buffer at the end.
#include "compile/KernelSignature.hpp"
#include "doc/Document.hpp"
#include "doc/PreparedRun.hpp"
#include "launch/Backend.hpp"
#include "launch/ResidentBuffers.hpp"
#include "launch/RunResult.hpp"
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

    // Fills the result's steps, printf, fault, findings, warnings, checks, timings and
    // buffers. A document error found on the way (a copy outside its buffer, a bad count)
    // throws kw::Error(Document) naming the step's field.
    void run(RunResult& result);
    // run() stops before the first launch of step `step` (its path, "2" or "3.1", or its
    // name) and keeps that launch in held().
    void holdBefore(std::string step) { holdAt_ = std::move(step); }
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
    void copyStep(const StepSpec& step, const std::string& field);
    void fillStep(const StepSpec& step, const std::string& field);
    void repeatStep(const StepSpec& step, const std::string& field, const std::string& path, StepResult& r);
    std::vector<CheckResult> checksNow(const std::vector<CheckSpec>& checks, const std::string& field);

    std::size_t bufferIndex(const std::string& name, const std::string& field) const;
    std::size_t wholeNumber(const std::string& text, const std::string& field, std::size_t otherwise) const;
    // Buffer `index`'s contents now, read back once per change of the device's state.
    const HostBuffer& current(std::size_t index);
    void changed() { ++generation_; }
    void stop(const std::string& why);
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
    std::string holdAt_;             // holdBefore()
    std::optional<HeldLaunch> held_; // ... the launch held there
};

} // namespace kw
