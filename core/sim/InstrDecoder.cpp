// Decoding: the opcode table finds the row for an instruction's mnemonic and the row's
// function fills in the Instr; the operand helpers are Decoder's.
#include "sim/InstrDecoder.hpp"

#include "sim/DecodeFunctions.hpp"
#include "sim/Decoder.hpp"
#include "sim/Handlers.hpp"

#include <stdexcept>

namespace kw::sim {

Decoder::Decoder(const OpcodeInfo& row, std::vector<std::string> parts, const std::vector<PtxOperand>& ops, Instr& in,
                 const DecodeEnv& env)
    : row_(row)
    , parts_(std::move(parts))
    , ops_(ops)
    , in_(in)
    , env_(env)
{
    for (std::size_t i = 1; i < parts_.size(); ++i) {
        const PtxType t = parsePtxType(parts_[i]);
        if (t != PtxType::None)
            types_.push_back(t);
    }
}

bool Decoder::has(std::string_view mod) const
{
    if (!listsModifier(row_, mod))
        throw std::logic_error("the decoder of `" + std::string(row_.name) + "` reads ." + std::string(mod)
                               + ", which its opcode table row does not list");
    return written(mod);
}

bool Decoder::written(std::string_view mod) const
{
    for (std::size_t i = 1; i < parts_.size(); ++i)
        if (parts_[i] == mod)
            return true;
    return false;
}

PtxType Decoder::type(std::size_t i) const
{
    if (i >= types_.size())
        unsupported("instruction `" + joined() + "` without the expected type");
    return types_[i];
}

std::string Decoder::joined() const
{
    std::string s = parts_[0];
    for (std::size_t i = 1; i < parts_.size(); ++i)
        s += "." + parts_[i];
    return s;
}

Space Decoder::space() const
{
    if (written("global"))
        return Space::Global;
    if (written("shared"))
        return Space::Shared;
    if (written("local"))
        return Space::Local;
    if (written("const"))
        return Space::Const;
    if (written("param"))
        return Space::Param;
    return Space::Generic;
}

void Decoder::need(std::size_t n) const
{
    if (ops_.size() < n)
        unsupported("`" + joined() + "` with too few operands");
}

std::uint32_t Decoder::dst(std::size_t i) const
{
    need(i + 1);
    if (ops_[i].kind != PtxOperand::Kind::Reg)
        unsupported("`" + joined() + "` with a non-register destination");
    return ops_[i].reg;
}

std::uint32_t Decoder::src(std::size_t i, PtxType t)
{
    need(i + 1);
    const PtxOperand& o = ops_[i];
    switch (o.kind) {
    case PtxOperand::Kind::Reg:
        if (o.neg)
            in_.negMask |= std::uint8_t(1u << i);
        return o.reg;
    case PtxOperand::Kind::Imm: return env_.constReg(immediateBits(o.text, t));
    case PtxOperand::Kind::Sym:
        if (o.symKnown)
            return env_.constReg(o.symAddr);
        if (o.text.starts_with("%envreg"))
            unsupported("`" + o.text
                        + "`, the workspace of a cooperative launch (cg::this_grid(), grid.sync()): the simulator "
                          "does not run cooperative launches");
        unsupported("operand `" + o.text + "` (only registers, immediates and variable addresses are supported)");
    default: unsupported("`" + joined() + "` with an unsupported operand form");
    }
}

std::uint32_t Decoder::element(const PtxOperand& vec, std::size_t k, PtxType t) const
{
    if (k < vec.elemImm.size() && !vec.elemImm[k].empty())
        return env_.constReg(immediateBits(vec.elemImm[k], t));
    return vec.regs[k];
}

// Negation flags are kept per source slot (bit k for in.a[k]).
std::uint32_t Decoder::srcAt(std::size_t opIndex, std::size_t slot, PtxType t)
{
    const std::uint8_t before = in_.negMask;
    const std::uint32_t r = src(opIndex, t);
    if (in_.negMask != before)
        in_.negMask = std::uint8_t(before | (1u << slot));
    return r;
}

void Decoder::binary(Handler h)
{
    if (!h)
        unsupported("`" + joined() + "` for this type");
    const PtxType t = type();
    in_.d[0] = dst(0);
    in_.a[0] = srcAt(1, 0, t);
    in_.a[1] = srcAt(2, 1, t);
    in_.fn = h;
}

void Decoder::shift(Handler h)
{
    if (!h)
        unsupported("`" + joined() + "` for this type");
    in_.d[0] = dst(0);
    in_.a[0] = src(1, type());
    in_.a[1] = src(2, PtxType::U32);
    in_.fn = h;
}

void Decoder::unary(Handler h)
{
    if (!h)
        unsupported("`" + joined() + "` for this type");
    in_.d[0] = dst(0);
    in_.a[0] = srcAt(1, 0, type());
    in_.fn = h;
}

void Decoder::ternary(Handler h, PtxType t3)
{
    if (!h)
        unsupported("`" + joined() + "` for this type");
    const PtxType t = type();
    in_.d[0] = dst(0);
    in_.a[0] = src(1, t);
    in_.a[1] = src(2, t);
    in_.a[2] = src(3, t3);
    in_.fn = h;
}

namespace {

std::vector<std::string> splitMnemonic(const std::string& opcode)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = opcode.find('.', start);
        parts.push_back(opcode.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return parts;
}

// The modifiers every instruction may carry; the handlers that do not round ignore them.
void readRounding(const Decoder& d, Instr& in)
{
    static const std::pair<const char*, RoundMode> modes[]
        = {{"rn", RoundMode::Rn},   {"rz", RoundMode::Rz},   {"rm", RoundMode::Rm},
           {"rp", RoundMode::Rp},   {"rni", RoundMode::Rni}, {"rzi", RoundMode::Rzi},
           {"rmi", RoundMode::Rmi}, {"rpi", RoundMode::Rpi}, {"rna", RoundMode::Rna}};
    for (const auto& [name, mode] : modes)
        if (d.written(name))
            in.round = mode;
    in.ftz = d.written("ftz");
    in.sat = d.written("sat");
}

} // namespace

std::string decodeInstr(const std::string& opcode, const std::vector<PtxOperand>& givenOps, Instr& in,
                        const DecodeEnv& env)
{
    std::vector<std::string> parts = splitMnemonic(opcode);
    const OpcodeInfo* row = findOpcode(parts[0]);
    if (!row)
        return "instruction `" + opcode + "`";
    std::vector<PtxOperand> ops = givenOps;
    for (std::string& p : parts) {
        // The block's own shared memory, as .shared; with every block a cluster of one (the
        // simulator refuses kernels that ask for more), the cluster's shared memory is the block's.
        if (p == "shared::cta" || p == "shared::cluster")
            p = "shared";
        else if (p == "L2::cache_hint" && !ops.empty()) // its last operand is the cache policy: a hint only
            ops.pop_back();
    }
    try {
        Decoder d(*row, std::move(parts), ops, in, env);
        in.type = d.lastType();
        readRounding(d, in);
        row->decode(d, *row);
        return {};
    } catch (const Unsupported& u) {
        return u.why;
    }
}

} // namespace kw::sim
