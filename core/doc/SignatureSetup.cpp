#include "doc/SignatureSetup.hpp"

#include "doc/StepPaths.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace kw {

namespace {

using Variables = std::vector<std::pair<std::string, std::string>>;

// The names read as sizes. Exact names only: a parameter called `num_blocks` or `stride`
// is no count of elements, and guessing that it is would be silent.
constexpr std::array<const char*, 9> kCounts
    = {"n", "N", "size", "count", "len", "length", "num", "numElements", "num_elements"};
constexpr std::array<std::pair<const char*, const char*>, 6> kPlanes
    = {{{"width", "height"}, {"w", "h"}, {"nx", "ny"}, {"cols", "rows"}, {"ncols", "nrows"}, {"W", "H"}}};

constexpr const char* kLineStart = "4096";
constexpr const char* kPlaneStart = "256";
constexpr const char* kMatrixStart = "128";

struct Reader {
    const KernelSignature& kernel;
    const Variables& variables;
    SetupProposal out;

    const KernelParam* scalar(const std::string& name) const
    {
        for (const KernelParam& p : kernel.params)
            if (!p.isPointer && p.name == name) {
                const auto t = dtypeForCType(p.baseType);
                return t && !isFloating(*t) ? &p : nullptr;
            }
        return nullptr;
    }
    std::optional<std::string> variable(const std::string& name) const
    {
        for (const auto& [n, v] : variables)
            if (n == name)
                return v;
        return std::nullopt;
    }
    // A size: its variable, the document's value where it has one.
    void size(const KernelParam& p, const char* start, const std::string& why)
    {
        const auto known = variable(p.name);
        out.variables.emplace_back(p.name, known.value_or(start));
        out.notes.push_back({fmt::format("{} = {}", p.name, known.value_or(start)),
                             fmt::format("{} {}: {}; {}", p.baseType, p.name, why,
                                         known ? "the document's value" : "a size to start from")});
    }
};

// A kernel named for a matrix product: matmul, matMul, matrixMul, mat_mul, sgemm...
bool namesMatrixProduct(std::string name)
{
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return name.find("matmul") != std::string::npos || name.find("mat_mul") != std::string::npos
        || name.find("matrixmul") != std::string::npos || name.find("gemm") != std::string::npos;
}

std::string paramText(const KernelParam& p) { return p.type + (p.type.ends_with('*') ? "" : " ") + p.name; }

} // namespace

SetupProposal SignatureSetup::propose(const KernelSignature& kernel, const Variables& variables)
{
    Reader r{kernel, variables, {}};
    SetupProposal& out = r.out;
    const auto refuse = [&](std::string why) {
        SetupProposal none;
        none.reason = std::move(why);
        return none;
    };

    std::vector<const KernelParam*> pointers;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const KernelParam& p = kernel.params[i];
        if (p.name.empty())
            return refuse(fmt::format("parameter {} ({}) has no name", i + 1, p.type));
        if (!p.isPointer)
            continue;
        if (p.pointerDepth > 1)
            return refuse(fmt::format("{} is a pointer to pointers: what it points to cannot be told from the "
                                      "signature",
                                      paramText(p)));
        if (!dtypeForCType(p.baseType))
            return refuse(fmt::format("{} points to {}, which is no element type a buffer has (i8 to f64)",
                                      paramText(p), p.baseType));
        pointers.push_back(&p);
    }
    if (pointers.empty())
        return refuse("no pointer parameter: there is no buffer to set up");

    // The shape, from the sizes the parameters name: a matrix product, a plane, a line.
    std::string count;
    std::vector<std::string> shape;
    const KernelParam *m = r.scalar("M"), *n = r.scalar("N"), *k = r.scalar("K");
    const KernelParam *width = nullptr, *height = nullptr;
    for (const auto& [w, h] : kPlanes)
        if (!width && r.scalar(w) && r.scalar(h)) {
            width = r.scalar(w);
            height = r.scalar(h);
        }
    const KernelParam* line = nullptr;
    for (const char* c : kCounts)
        if (!line)
            line = r.scalar(c);
    std::array<std::string, 3> mnk; // the matrix product's sizes: C is M×N, A M×K, B K×N
    if (m && n && k && pointers.size() == 3) {
        out.shape = SetupProposal::Shape::MatrixProduct;
        const std::string why = "M, N and K name a matrix product C = A·B (A M×K, B K×N, C M×N, row-major)";
        r.size(*m, kMatrixStart, why);
        r.size(*n, kMatrixStart, why);
        r.size(*k, kMatrixStart, why);
        mnk = {m->name, n->name, k->name};
    } else if (line && pointers.size() == 3 && namesMatrixProduct(kernel.name)) {
        out.shape = SetupProposal::Shape::MatrixProduct;
        r.size(*line, kMatrixStart,
               "with the kernel's name, the one size of a square matrix product C = A·B (each " + line->name + "×"
                   + line->name + ", row-major)");
        mnk = {line->name, line->name, line->name};
    } else if (width) {
        out.shape = SetupProposal::Shape::Grid;
        r.size(*width, kPlaneStart, "named as the width of a 2-D grid");
        r.size(*height, kPlaneStart, "named as the height of a 2-D grid");
        count = height->name + "*" + width->name;
        shape = {height->name, width->name};
    } else if (line) {
        out.shape = SetupProposal::Shape::Line;
        r.size(*line, kLineStart, "named as a count of elements (1-D)");
        count = line->name;
    } else {
        return refuse("no parameter gives the sizes: the set-up looks for an integer named n, N, size, count, len, "
                      "length, num or num_elements (1-D), width and height, w and h, nx and ny, cols and rows (2-D), "
                      "or M, N and K with three pointers (a matrix product)");
    }

    // Which buffers the kernel writes: the pointers not to const, where some are to const;
    // else the last one, as a kernel's parameters are usually written inputs first.
    const bool anyConst
        = std::any_of(pointers.begin(), pointers.end(), [](const KernelParam* p) { return p->isConst; });
    for (std::size_t i = 0; i < pointers.size(); ++i) {
        const KernelParam& p = *pointers[i];
        BufferSpec b;
        b.name = p.name;
        b.dtype = *dtypeForCType(p.baseType);
        b.count = count;
        b.shape = shape;
        if (out.shape == SetupProposal::Shape::MatrixProduct) {
            static constexpr std::array<std::array<int, 2>, 3> dims = {{{0, 2}, {2, 1}, {0, 1}}}; // M×K, K×N, M×N
            b.shape = {mnk[dims[i][0]], mnk[dims[i][1]]};
            b.count = b.shape[0] + "*" + b.shape[1];
        }
        const bool output = anyConst ? !p.isConst : i + 1 == pointers.size();
        std::string from;
        if (p.isConst)
            from = "points to const: only read";
        else if (anyConst)
            from = "not const: the kernel writes it";
        else if (output)
            from = "no pointer is const: the last is taken as the output";
        else
            from = "no pointer is const: those before the last are taken as inputs";
        if (out.shape == SetupProposal::Shape::MatrixProduct)
            from += fmt::format("; {} of C = A·B", i == 0 ? "A" : i == 1 ? "B" : "C");
        b.direction = output ? Direction::Out : Direction::In;
        if (!output) {
            b.init.kind = Initialiser::Kind::Uniform;
            b.init.seed = i + 1;
        }
        const std::string elements = b.shape.empty() ? b.count + " elements" : b.shape[0] + "×" + b.shape[1];
        out.notes.push_back(
            {fmt::format("buffer {}: {}, {}, {}", b.name, toString(b.dtype), elements,
                         output ? "out (zeros, read back)" : fmt::format("in (random in [0, 1), seed {})", i + 1)),
             paramText(p) + ": " + from});
        out.buffers.push_back(std::move(b));
    }

    // The arguments, in parameter order: buffers by name, sizes by their variable.
    for (const KernelParam& p : kernel.params) {
        ArgSpec a;
        a.name = p.name;
        if (p.isPointer) {
            a.buffer = p.name;
        } else {
            const auto type = dtypeForCType(p.baseType);
            if (!type)
                return refuse(fmt::format("{} is passed by value as {}, which is no scalar type an argument has",
                                          paramText(p), p.baseType));
            a.type = *type;
            const bool sized = std::any_of(out.variables.begin(), out.variables.end(),
                                           [&](const auto& v) { return v.first == p.name; });
            if (sized || r.variable(p.name)) {
                a.value = p.name;
            } else {
                a.value = "1";
                out.notes.push_back({fmt::format("{} = 1", p.name),
                                     paramText(p) + ": no rule for this name; 1 to start from, set it yourself"});
            }
        }
        out.args.push_back(std::move(a));
    }

    switch (out.shape) {
    case SetupProposal::Shape::Line:
        out.launch.grid = {"cdiv(" + line->name + ", 256)", "1", "1"};
        out.launch.block = {"256", "1", "1"};
        out.notes.push_back({"launch: blocks of 256 threads, cdiv(" + line->name + ", 256) of them",
                             "one thread per element, x = blockIdx.x * blockDim.x + threadIdx.x"});
        break;
    case SetupProposal::Shape::Grid:
        out.launch.grid = {"cdiv(" + width->name + ", 16)", "cdiv(" + height->name + ", 16)", "1"};
        out.launch.block = {"16", "16", "1"};
        out.notes.push_back({"launch: blocks of 16×16 threads over " + width->name + "×" + height->name,
                             "one thread per element, x along " + width->name + ", y along " + height->name});
        break;
    case SetupProposal::Shape::MatrixProduct:
        out.launch.grid = {"cdiv(" + mnk[1] + ", 16)", "cdiv(" + mnk[0] + ", 16)", "1"};
        out.launch.block = {"16", "16", "1"};
        out.notes.push_back(
            {"launch: blocks of 16×16 threads over C",
             "one thread per element of C, x along its columns (" + mnk[1] + "), y along its rows (" + mnk[0] + ")"});
        break;
    case SetupProposal::Shape::None: break;
    }
    return out;
}

namespace {

// The proposal's sizes and buffers in `d`: the part a single launch and a step share.
void takeVariablesAndBuffers(const SetupProposal& proposal, Document& d)
{
    for (const auto& variable : proposal.variables) {
        auto it = std::find_if(d.variables.begin(), d.variables.end(),
                               [&](const auto& v) { return v.first == variable.first; });
        if (it == d.variables.end())
            d.variables.push_back(variable);
        else
            it->second = variable.second;
    }
    for (const BufferSpec& b : proposal.buffers) {
        auto it
            = std::find_if(d.buffers.begin(), d.buffers.end(), [&](const BufferSpec& o) { return o.name == b.name; });
        if (it == d.buffers.end())
            d.buffers.push_back(b);
        else
            *it = b;
    }
}

} // namespace

Document SignatureSetup::apply(const SetupProposal& proposal, const Document& doc)
{
    Document d = doc;
    takeVariablesAndBuffers(proposal, d);
    d.args = proposal.args;
    d.argsAuto = false;
    d.launch = proposal.launch;
    return d;
}

Document SignatureSetup::applyToStep(const SetupProposal& proposal, const Document& doc, const std::string& stepPath)
{
    Document d = doc;
    StepSpec* step = StepPaths::find(d.steps, stepPath);
    if (!step || step->kind != StepSpec::Kind::Launch)
        throw Error(ErrorCategory::Usage, "step " + stepPath + " is no launch step to set up from a signature");
    takeVariablesAndBuffers(proposal, d);
    step->args = proposal.args;
    step->argsAuto = false;
    step->launch = proposal.launch;
    return d;
}

} // namespace kw
