#pragma once
// Who wrote an output element, on the simulator: the solution's launch runs again under
// the debugger (core/debug) with a watch on that element, to its end; the last write is
// the one the output kept. A document of steps: its launch steps are tried from the last
// one back, each from the buffers the steps before it left (a step inside a loop: its
// first pass).
#include "doc/Document.hpp"
#include "grade/GradeReport.hpp"
#include "launch/RunResult.hpp"

#include <string>

namespace kw {
class Compiler;
}

namespace kw::grade {

class WriterLocator {
public:
    explicit WriterLocator(Compiler& compiler)
        : compiler_(compiler)
    {
    }

    // `doc` exactly as it ran (the same inputs); `ran` its result, for the launch shapes.
    ElementWriter locate(const Document& doc, const RunResult& ran, const std::string& buffer, std::size_t index);

private:
    ElementWriter inLaunch(const Document& doc, const std::string& step, Dim3 grid, Dim3 block,
                           const std::string& buffer, std::size_t index);
    Compiler& compiler_;
};

} // namespace kw::grade
