#pragma once
// Runs a document on any backend: compile, evaluate, cross-check the arguments,
// launch, parse printf, run the checks, and collect everything into a RunResult.
#include "compile/Compiler.hpp"
#include "doc/Document.hpp"
#include "launch/Backend.hpp"
#include "run/PreparedRunCache.hpp"
#include "launch/RunResult.hpp"

#include <functional>
#include <optional>
#include <string>

namespace kw {

struct RunOverrides {
    std::optional<int> repeats;          // --repeat
    std::optional<int> warmup;
    std::optional<double> timeLimitSeconds;
    ProfileRequest profile;              // --profile: per-line counters (the simulator)
};

class RunEngine {
public:
    using StageCallback = std::function<void(const std::string& stage)>;

    // `inputs` (may be null) keeps prepared inputs between runs of one runner.
    RunEngine(Compiler& compiler, Backend& backend, PreparedRunCache* inputs = nullptr);

    // "compile", "upload" (evaluate + allocate + launch), "checks" as they start.
    void onStage(StageCallback callback) { onStage_ = std::move(callback); }

    // Compile errors come back as a result with ok == false and the diagnostics;
    // a kernel fault as a result with `fault`. A bad document or a machinery
    // failure throws kw::Error.
    RunResult run(const Document& doc, const RunOverrides& overrides = {});

    // The compile step alone, for the arch of this engine's backend.
    CompileResult compile(const Document& doc);
    // The document's source and options as a compile request (arch as the document says).
    static CompileRequest compileRequest(const Document& doc);

    // Bytes the buffers move in one launch: in buffers are read, out buffers
    // written, inout both.
    static std::uint64_t bytesMoved(const std::vector<BufferArg>& buffers);

private:
    void stage(const std::string& name) const;

    Compiler& compiler_;
    Backend& backend_;
    PreparedRunCache* inputs_;
    StageCallback onStage_;
};

} // namespace kw
