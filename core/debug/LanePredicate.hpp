#pragma once
// A breakpoint's condition in its common simple form, evaluated for all lanes of a warp
// at once without muparser: comparisons (== != < <= > >=) of threadIdx/blockIdx/
// blockDim/gridDim components, lane, warp, PTX registers and numbers, joined by && and
// || and grouped by parentheses (`blockIdx.x == 3 && threadIdx.x == 17`). Values are
// compared as doubles, read as LaneExpression reads them, so both give the same answer;
// any other text is not compiled (compile() returns nothing) and LaneExpression's
// general evaluator serves it.
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
    // `pc` picks a register among several of one name (LaneExpression::findRegister).
    static std::optional<LanePredicate> compile(const std::string& text, const sim::Function& fn, std::uint32_t pc);

    // The lanes of `lanes` (a mask) for which the condition holds.
    std::uint32_t holds(const sim::Warp& w, std::uint32_t lanes) const;

    struct Operand {
        enum class Kind : std::uint8_t { Number, Special, Register, Lane, Warp } kind = Kind::Number;
        double number = 0;       // Number
        std::uint32_t index = 0; // Special: the simulator's register of it; Register: the PTX register
        sim::PtxType type = sim::PtxType::None;
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
    // The operand's value for each of `lanes` into out[lane].
    void load(const Operand& o, const sim::Warp& w, std::uint32_t lanes, double* out) const;
    std::uint32_t compare(const Node& n, const sim::Warp& w, std::uint32_t lanes) const;

    friend class LanePredicateParser;
};

} // namespace kw::debug
