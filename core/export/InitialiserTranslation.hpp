#pragma once
// Whether a buffer's initial contents can be written as a formula in the exported
// program (zeros, fill, arange, linspace) or must travel as a .npy file of the
// document's exact values (random numbers, expressions, files, copies, half floats).
// A formula is chosen only when its values, computed here as the program will compute
// them (in double, then converted), equal the document's bytes: when in doubt, bake.
#include "data/HostBuffer.hpp"
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"

#include <string>

namespace kw::exporting {

struct InitialValues {
    enum class Form { Baked, Zeros, Fill, Arange, Linspace };
    Form form = Form::Baked;
    double a = 0, b = 0; // fill: a; arange: start a, step b; linspace: start a, stop b
    std::string reason;  // why it is baked, for the README
};

class InitialiserTranslation {
public:
    // `values` are the buffer's initial contents as the document gives them
    // (PreparedRun); `scope` evaluates the initialiser's parameters.
    static InitialValues choose(const BufferSpec& spec, const HostBuffer& values, const VariableScope& scope);
    // The values a translated form gives, as the exported program computes them.
    static HostBuffer compute(const InitialValues& form, DType dtype, std::size_t count);
};

} // namespace kw::exporting
