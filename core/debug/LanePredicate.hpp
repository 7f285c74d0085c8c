#pragma once
// A breakpoint's condition in its common simple form, evaluated for all lanes of a warp
// at once without muparser: comparisons (== != < <= > >=) of threadIdx/blockIdx/
// blockDim/gridDim components, lane, warp, PTX registers, the source's scalar variables
// (-G) and numbers, joined by && and || and grouped by parentheses (`blockIdx.x == 3 &&
// threadIdx.x == 17`, `i > 1000`). A source variable's place (its register or address
// at this pc, from its location list) is resolved once, as the predicate is compiled.
// Values are compared as doubles, read as LaneExpression reads them, so both give the
// same answer; any other text is not compiled (compile() returns nothing) and
// LaneExpression's general evaluator serves it.
#include "debug/SourceVariables.hpp"
#include "sim/PtxModule.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::sim {
struct Warp;
}

namespace kw::debug {

class LanePredicate {
public:
    // `pc` picks a register among several of one name (LaneExpression::findRegister) and
    // the places of the source's variables (`sources`: null without -G).
    static std::optional<LanePredicate> compile(const std::string& text, const sim::Function& fn, std::uint32_t pc,
                                                const SourceVariables* sources = nullptr);

    // The lanes of `lanes` (a mask) for which the condition holds; nothing when a source
    // variable in memory cannot be read for one of them (the general evaluator then says why).
    std::optional<std::uint32_t> holds(const sim::Warp& w, std::uint32_t lanes) const;

    struct Operand {
        enum class Kind : std::uint8_t {
            Number,
            Special,
            Register,
            Lane,
            Warp,
            SourceRegister, // a source variable in a register, read as its DWARF type
            SourceMemory,   // one in local, shared or global memory
        } kind = Kind::Number;
        double number = 0;       // Number
        std::uint32_t index = 0; // Special: the simulator's register of it; Register, SourceRegister: the
                                 // register; SourceMemory: the variable in places_
        sim::PtxType type = sim::PtxType::None;
        dwarf::SourceType::Kind sourceKind = dwarf::SourceType::Kind::Other; // Source*: its type
        std::uint32_t sourceSize = 0;
    };
    enum class Op : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, And, Or };
    // A tree in postfix order: comparisons push a mask, And/Or combine the top two.
    struct Node {
        Op op = Op::Eq;
        Operand a, b;
    };

private:
    static constexpr std::size_t kDepth = 64; // masks on the evaluation stack; deeper text is not compiled
    std::vector<Node> program_;
    std::vector<VisibleVariable> places_; // the source variables in memory, placed at the pc
    // The operand's value for each of `lanes` into out[lane]; false when one cannot be read.
    bool load(const Operand& o, const sim::Warp& w, std::uint32_t lanes, double* out) const;
    std::optional<std::uint32_t> compare(const Node& n, const sim::Warp& w, std::uint32_t lanes) const;

    friend class LanePredicateParser;
};

} // namespace kw::debug
