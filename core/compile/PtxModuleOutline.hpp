#pragma once
// A PTX module's declarations without its instructions: the variables at module scope
// and, per .entry and .func, the parameters and the body's declarations. Reading is
// forgiving: malformed text (inline asm is user text) is reported as a problem naming
// its line, and reading goes on after it. Never throws.
#include "compile/PtxDeclaration.hpp"
#include "compile/PtxFunctionOutline.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kw::ptx {

struct PtxModuleOutline {
    struct Problem {
        int line = 0; // in the PTX text
        std::string what;
    };

    std::vector<PtxDeclaration> variables; // module scope: .global, .const, .shared ...
    std::vector<PtxFunctionOutline> functions;
    std::vector<Problem> problems;

    static PtxModuleOutline read(std::string_view ptx);
};

} // namespace kw::ptx
