#pragma once
// What one .entry or .func of a PTX module declares: its parameters and the declarations
// of its body, each with the depth of the block it stands in.
#include "compile/PtxDeclaration.hpp"

#include <string>
#include <vector>

namespace kw::ptx {

struct PtxFunctionOutline {
    struct BodyDeclaration {
        PtxDeclaration declaration;
        int depth = 1; // 1 in the body's own block, 2 in a { } within it ...
    };

    bool isEntry = false; // .entry (a kernel), else .func
    std::string name;
    int line = 0;
    std::vector<PtxDeclaration> returns; // a .func's return parameters
    std::vector<PtxDeclaration> params;
    bool hasBody = false; // false for a declaration ending in ';'
    std::vector<BodyDeclaration> body;
};

} // namespace kw::ptx
