#pragma once
// A first set-up of a launch read from the kernel's parameters (the signature the
// compiler's parser gives): a buffer per pointer parameter, of its element type; the
// sizes from the scalars named like sizes (n, width and height, M, N and K); a launch
// over them. Only the common shapes are recognised, and each thing proposed says what
// it was inferred from, so the user sees every guess before taking it. A signature that
// gives no sizes is not guessed at: the proposal says why.
#include "compile/KernelSignature.hpp"
#include "doc/Document.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kw {

struct SetupNote {
    std::string what; // "buffer a: f32, n elements, in"
    std::string from; // "const float* a: a pointer to const is only read"
};

struct SetupProposal {
    enum class Shape { None, Line, Grid, MatrixProduct };
    Shape shape = Shape::None;
    std::string reason;                                         // Shape::None: why nothing is proposed
    std::vector<std::pair<std::string, std::string>> variables; // the sizes, each with its value
    std::vector<BufferSpec> buffers;
    std::vector<ArgSpec> args;
    LaunchSpecText launch;
    std::vector<SetupNote> notes; // in the parameters' order, then the launch
    bool understood() const { return shape != Shape::None; }
};

class SignatureSetup {
public:
    // `variables`: the document's, whose values a size of the same name keeps.
    static SetupProposal propose(const KernelSignature& kernel,
                                 const std::vector<std::pair<std::string, std::string>>& variables);
    // `doc` with the proposal taken: its buffers replace those of the same names (others
    // stay), the arguments and the launch are its, a size already a variable takes the
    // proposal's value in place, a new one comes last.
    static Document apply(const SetupProposal& proposal, const Document& doc);
    // `doc`, a document of steps, with the proposal taken for its launch step at `stepPath`
    // ("2", "3.1"): the variables and buffers as above, the step's arguments and launch the
    // proposal's; the other steps keep theirs. Throws kw::Error(Usage) where the path names
    // no launch step.
    static Document applyToStep(const SetupProposal& proposal, const Document& doc, const std::string& stepPath);
};

} // namespace kw
