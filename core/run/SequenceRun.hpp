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
#include "run/StepProgress.hpp"
#include "util/Deadline.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kw {

// A kernel of the document, compiled.
struct CompiledKernel {
    KernelImage image;
    std::optional<KernelSignature> signature; // none when overloads make it ambiguous
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
    BufferResult bufferNow(std::size_t index);
    // A backend's message with each "buffer 'NAME'" under the name the buffer has now
    // (after swaps), not the one it was uploaded under.
    std::string currentNames(const std::string& message) const;
    void keepBuffers(StepResult& r);
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
    StepProgress progress_;
    std::set<std::string> keep_; // step paths whose buffers are kept
    bool keepAll_ = false;
    std::uint64_t keepLimit_ = 0, kept_ = 0;
    std::vector<std::string> leftOut_; // steps whose buffers were past the limit
};

} // namespace kw
