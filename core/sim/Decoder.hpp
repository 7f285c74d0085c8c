#pragma once
// The state of decoding one instruction: its mnemonic's parts, its operands and the
// opcode table row it matched. The row's decode function reads them through here.
#include "sim/InstrDecoder.hpp"
#include "sim/OpcodeTable.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kw::sim {

// Thrown by Decoder::unsupported; decodeInstr turns it into the message it returns.
struct Unsupported {
    std::string why;
};

class Decoder {
public:
    Decoder(const OpcodeInfo& row, std::vector<std::string> parts, const std::vector<PtxOperand>& ops, Instr& in,
            const DecodeEnv& env);

    Instr& in() { return in_; }
    const OpcodeInfo& row() const { return row_; }
    const std::vector<PtxOperand>& ops() const { return ops_; }
    const DecodeEnv& env() const { return env_; }
    const std::vector<std::string>& parts() const { return parts_; } // the mnemonic split at '.'

    // Whether the mnemonic carries the modifier. Only modifiers the row lists may be asked
    // for (a std::logic_error otherwise), so the table shows everything a decoder reacts to.
    bool has(std::string_view mod) const;
    // The same for any part, for the modifiers every instruction shares (rounding, .ftz, .sat).
    bool written(std::string_view mod) const;

    std::size_t typeCount() const { return types_.size(); }
    PtxType type(std::size_t i = 0) const; // the i-th type modifier; unsupported when missing
    PtxType firstType() const { return types_.empty() ? PtxType::None : types_.front(); }
    PtxType lastType() const { return types_.empty() ? PtxType::None : types_.back(); }
    std::string joined() const; // the mnemonic as written
    Space space() const;        // the state-space modifier, Generic when none

    [[noreturn]] void unsupported(const std::string& why) const { throw Unsupported{why}; }
    void need(std::size_t n) const;
    std::uint32_t dst(std::size_t i) const;
    std::uint32_t src(std::size_t i, PtxType t);
    // Element k of a vector operand {a, b, ...} of elements of type t: a register, or an immediate's constant register.
    std::uint32_t element(const PtxOperand& vec, std::size_t k, PtxType t) const;
    // src() whose negation ("!p") is recorded for source slot `slot` (bit slot of in.negMask).
    std::uint32_t srcAt(std::size_t opIndex, std::size_t slot, PtxType t);

    // The common operand shapes: d, a, b / d, a, b(u32) / d, a / d, a, b, c(t3).
    void binary(Handler h);
    void shift(Handler h);
    void unary(Handler h);
    void ternary(Handler h, PtxType t3);

private:
    const OpcodeInfo& row_;
    std::vector<std::string> parts_;
    const std::vector<PtxOperand>& ops_;
    Instr& in_;
    const DecodeEnv& env_;
    std::vector<PtxType> types_;
};

} // namespace kw::sim
