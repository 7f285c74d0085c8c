#pragma once
// Runs a document on any backend: compile, evaluate, cross-check the arguments,
// launch, parse printf, run the checks, and collect everything into a RunResult.
#include "compile/Compiler.hpp"
#include "doc/Document.hpp"
#include "launch/Backend.hpp"
#include "launch/CheckTool.hpp"
#include "launch/RunResult.hpp"
#include "run/PreparedRunCache.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kw {

struct RunOverrides {
    std::optional<int> repeats; // --repeat
    std::optional<int> warmup;
    std::optional<double> timeLimitSeconds;
    // --check (docs/checks.md): on a `cuda` device the run goes to the ExternalCheck
    // (compute-sanitizer); on other backends it is LaunchConfig::check, the backend's own.
    std::optional<CheckTool> check;
    ProfileRequest profile; // --profile: per-line counters (the simulator)
    // A document of steps: the steps whose buffers to keep as they left them
    // (StepResult::buffers), by path ("2", "3.1"); "*" is every step. --out-after.
    std::vector<std::string> stepBuffers;
    // The most bytes those copies may take in all; the ones past it are left out, with a
    // warning naming their steps.
    std::uint64_t stepBufferLimitBytes = std::uint64_t(1) << 30;
};

class ExternalCheck;
struct CompiledKernel;

class RunEngine {
public:
    using StageCallback = std::function<void(const std::string& stage)>;
    using StepCallback = std::function<void(const std::string& path)>;

    // `inputs` (may be null) keeps prepared inputs between runs of one runner.
    RunEngine(Compiler& compiler, Backend& backend, PreparedRunCache* inputs = nullptr);

    // "compile", "upload" (evaluate + allocate + launch), "checks" as they start.
    void onStage(StageCallback callback) { onStage_ = std::move(callback); }
    // A document of steps: a step's path as it begins a run, at most once per
    // StepProgress::kInterval for each path (a loop of many passes does not flood).
    void onStep(StepCallback callback) { onStep_ = std::move(callback); }

    // Runs a check on a `cuda` device (may be null: such a run is then refused).
    void setExternalCheck(ExternalCheck* check) { externalCheck_ = check; }

    // Compile errors come back as a result with ok == false and the diagnostics;
    // a kernel fault as a result with `fault`. A bad document or a machinery
    // failure throws kw::Error.
    RunResult run(const Document& doc, const RunOverrides& overrides = {});

    // The compile step alone, for the document's arch as this engine's backend can run it.
    CompileResult compile(const Document& doc);
    // The document's source and options as a compile request (arch as the document says).
    static CompileRequest compileRequest(const Document& doc);

    // A kernel of the document as a backend launches it, and its C signature where it is
    // unambiguous. Throws when NVRTC did not lower it or its .entry is missing.
    static CompiledKernel compiledKernel(const CompileResult& compiled, const std::string& kernel);

    // Bytes the buffers move in one launch: in buffers are read, out buffers
    // written, inout both.
    static std::uint64_t bytesMoved(const std::vector<BufferArg>& buffers);

private:
    void stage(const std::string& name) const;
    RunResult runExternalCheck(const Document& doc, const RunOverrides& overrides, CheckTool tool);
    // A document of steps (run/SequenceRun), once compiled.
    RunResult runSequence(const Document& doc, const RunOverrides& overrides, RunResult result, PreparedRun prepared);

    Compiler& compiler_;
    Backend& backend_;
    PreparedRunCache* inputs_;
    StageCallback onStage_;
    StepCallback onStep_;
    ExternalCheck* externalCheck_ = nullptr;
};

} // namespace kw
