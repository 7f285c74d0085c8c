#pragma once
// What `kwb-run compile` compiles: a .cu file as it is, or a .kwb document's source
// and options (numeric defines evaluated as for a run), then the command line's
// defines and include folders, its trust, and the architecture (ArchChoice).
#include "compile/Compiler.hpp"
#include "run/ArchChoice.hpp"
#include "run/CompileCommandOptions.hpp"

namespace kw {

class CompileInput {
public:
    // Throws kw::Error for a file that cannot be read or a bad document.
    static CompileRequest request(const CompileCommandOptions& options,
                                  const ArchChoice::Gpus& gpus = ArchChoice::ofThisMachine());
};

} // namespace kw
