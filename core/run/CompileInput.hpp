#pragma once
// What `kwb-run compile` compiles: a .cu file as it is, or a .kwb document's source
// and options (numeric defines evaluated as for a run), then the command line's
// defines and include folders, its trust, and the architecture (ArchChoice).
#include "compile/Compiler.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "run/ArchChoice.hpp"
#include "run/CompileCommandOptions.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kw {

struct CompileInput {
    CompileRequest compileRequest;
    // A document's launch and kernel (name expression), for the occupancy it would have.
    std::optional<LaunchDims> launch;
    std::string kernel;
    // A document of steps: each launch step's, in document order.
    struct StepLaunch {
        std::string path, name, kernel;
        std::optional<LaunchDims> launch; // none when it cannot be known before running
        std::string note;                 // why not, or what was assumed ("pass 0")
    };
    std::vector<StepLaunch> steps;

    // Throws kw::Error for a file that cannot be read or a bad document.
    static CompileInput read(const CompileCommandOptions& options,
                             const ArchChoice::Gpus& gpus = ArchChoice::ofThisMachine());
    static CompileRequest request(const CompileCommandOptions& options,
                                  const ArchChoice::Gpus& gpus = ArchChoice::ofThisMachine())
    {
        return read(options, gpus).compileRequest;
    }
};

} // namespace kw
