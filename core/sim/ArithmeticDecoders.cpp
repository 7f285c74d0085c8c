// Decode functions of the arithmetic, logic, comparison, move and conversion rows.
#include "sim/DecodeFunctions.hpp"

#include "sim/Decoder.hpp"
#include "sim/Half16.hpp"
#include "sim/Handlers.hpp"

namespace kw::sim {

namespace {

void carried(Decoder& d, CarryOp op, bool carryIn)
{
    Instr& in = d.in();
    in.carryIn = carryIn;
    in.carryOut = d.has("cc");
    const PtxType t = d.firstType();
    const Handler h = carryHandler(op, t);
    if (op == CarryOp::MadLo || op == CarryOp::MadHi)
        return d.ternary(h, t);
    d.binary(h);
}

} // namespace

void decodeBinary(Decoder& d, const OpcodeInfo& row) { d.binary(arithHandler(row.op, d.firstType())); }
void decodeUnary(Decoder& d, const OpcodeInfo& row) { d.unary(arithHandler(row.op, d.firstType())); }
void decodeShift(Decoder& d, const OpcodeInfo& row) { d.shift(arithHandler(row.op, d.firstType())); }

void decodeTernary(Decoder& d, const OpcodeInfo& row)
{
    const PtxType t = d.firstType();
    d.ternary(arithHandler(row.op, t), t);
}

void decodeCount(Decoder& d, const OpcodeInfo& row)
{
    d.in().type = PtxType::U32;
    d.unary(arithHandler(row.op, d.firstType()));
}

void decodeBfind(Decoder& d, const OpcodeInfo&)
{
    const ArithOp op = d.has("shiftamt") ? ArithOp::BfindShiftAmt : ArithOp::Bfind;
    d.in().type = PtxType::U32;
    d.unary(arithHandler(op, d.firstType()));
}

void decodeAddSub(Decoder& d, const OpcodeInfo& row)
{
    if (d.has("cc"))
        return carried(d, row.op == ArithOp::Add ? CarryOp::Add : CarryOp::Sub, false);
    d.binary(arithHandler(row.op, d.firstType()));
}

void decodeCarry(Decoder& d, const OpcodeInfo& row)
{
    const CarryOp op = row.name == "addc" ? CarryOp::Add
        : row.name == "subc"              ? CarryOp::Sub
        : d.has("hi")                     ? CarryOp::MadHi
                                          : CarryOp::MadLo;
    carried(d, op, true);
}

void decodeMul(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    const PtxType t = d.firstType();
    if (isFloat(t))
        return d.binary(arithHandler(ArithOp::Mul, t));
    if (d.has("wide")) {
        in.type = t == PtxType::S32 ? PtxType::S64 : t == PtxType::U32 ? PtxType::U64 : t;
        const Handler h = wideHandler(false, t);
        if (!h)
            d.unsupported("`" + d.joined() + "`");
        return d.binary(h);
    }
    d.binary(arithHandler(d.has("hi") ? ArithOp::MulHi : ArithOp::Mul, t));
}

// min/max .NaN: on the 16-bit float types only.
void decodeMinMax(Decoder& d, const OpcodeInfo& row)
{
    const PtxType t = d.firstType();
    d.in().nanMode = d.has("NaN");
    if (d.in().nanMode && !isHalf16(t))
        d.unsupported("`" + d.joined() + "` (.NaN on this type)");
    d.binary(arithHandler(row.op, t));
}

void decodeMad(Decoder& d, const OpcodeInfo& row)
{
    const PtxType t = d.firstType();
    if (row.name == "fma")
        d.in().relu = d.has("relu");
    if (d.in().relu && !isHalf16(t))
        d.unsupported("`" + d.joined() + "` (.relu on this type)");
    if (row.name == "mad" && d.has("cc"))
        return carried(d, d.has("hi") ? CarryOp::MadHi : CarryOp::MadLo, false);
    if (isFloat(t))
        return d.ternary(arithHandler(ArithOp::Mad, t), t); // fma, whatever .lo/.hi say
    if (d.has("wide")) {
        const PtxType wt = t == PtxType::S32 ? PtxType::S64
            : t == PtxType::U32              ? PtxType::U64
            : t == PtxType::S16              ? PtxType::S32
                                             : PtxType::U32;
        return d.ternary(wideHandler(true, t), wt);
    }
    d.ternary(arithHandler(d.has("hi") ? ArithOp::MadHi : ArithOp::Mad, t), t);
}

void decodeBfe(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    const PtxType t = d.firstType();
    const Handler h = bfeHandler(t);
    in.d[0] = d.dst(0);
    in.a[0] = d.src(1, t);
    in.a[1] = d.src(2, PtxType::U32);
    in.a[2] = d.src(3, PtxType::U32);
    in.fn = h;
}

void decodeBfi(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    const PtxType t = d.firstType();
    in.d[0] = d.dst(0);
    in.a[0] = d.src(1, t);
    in.a[1] = d.src(2, t);
    in.a[2] = d.src(3, PtxType::U32);
    in.a[3] = d.src(4, PtxType::U32);
    in.fn = bfiHandler(t);
}

void decodeDp4a(Decoder& d, const OpcodeInfo&)
{
    if (d.typeCount() < 2)
        d.unsupported("dp4a without two types");
    const Handler h = dp4aHandler(isSigned(d.type(0)), isSigned(d.type(1)));
    d.in().type = PtxType::S32;
    d.ternary(h, PtxType::B32);
}

void decodePrmt(Decoder& d, const OpcodeInfo&)
{
    if (d.parts().size() > 2)
        d.unsupported("prmt with a mode");
    d.ternary(&hPrmt, PtxType::B32);
}

void decodeLop3(Decoder& d, const OpcodeInfo&)
{
    d.need(5);
    const PtxOperand& lut = d.ops()[4];
    if (lut.kind != PtxOperand::Kind::Imm)
        d.unsupported("lop3 with a non-immediate table");
    d.in().imm = std::int64_t(immediateBits(lut.text, PtxType::U32));
    d.ternary(&hLop3, PtxType::B32);
}

void decodeShf(Decoder& d, const OpcodeInfo&) { d.ternary(shfHandler(d.has("l"), d.has("clamp")), PtxType::U32); }

void decodeSelp(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    const PtxType t = d.firstType();
    in.d[0] = d.dst(0);
    in.a[0] = d.src(1, t);
    in.a[1] = d.src(2, t);
    in.a[2] = d.srcAt(3, 2, PtxType::Pred);
    in.fn = &hSelp;
}

void decodeTestp(Decoder& d, const OpcodeInfo&)
{
    static const std::pair<const char*, TestOp> classes[]
        = {{"finite", TestOp::Finite},         {"infinite", TestOp::Infinite}, {"number", TestOp::Number},
           {"notanumber", TestOp::NotANumber}, {"normal", TestOp::Normal},     {"subnormal", TestOp::Subnormal}};
    Instr& in = d.in();
    for (const auto& [name, op] : classes)
        if (d.has(name))
            in.test = op;
    in.d[0] = d.dst(0);
    in.a[0] = d.src(1, d.firstType());
    in.fn = &hTestp;
}

void decodeSetp(Decoder& d, const OpcodeInfo& row)
{
    static const std::pair<const char*, CmpOp> cmps[]
        = {{"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},   {"gt", CmpOp::Gt},
           {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},   {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},
           {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu}, {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu},
           {"geu", CmpOp::Geu}, {"num", CmpOp::Num}, {"nan", CmpOp::Nan}};
    Instr& in = d.in();
    const auto& parts = d.parts();
    const auto& ops = d.ops();
    bool found = false;
    for (const auto& [name, c] : cmps)
        if (parts.size() > 1 && parts[1] == name && listsModifier(row, name)) {
            in.cmp = c;
            found = true;
        }
    if (!found)
        d.unsupported("`" + d.joined() + "` comparison");
    const PtxType st = d.lastType();
    if (row.name == "set") {
        if (!isHalf16(st)) {
            if (d.typeCount() < 2)
                d.unsupported("set without two types");
            if (ops.size() > 3)
                d.unsupported("set with a boolean operand");
        }
        in.type = d.type(0);
        in.type2 = st;
        in.d[0] = d.dst(0);
        in.a[0] = d.src(1, st);
        in.a[1] = d.src(2, st);
        if (ops.size() > 3)
            d.unsupported("set with a boolean operand");
        in.fn = setHandler(st);
        if (!in.fn)
            d.unsupported("`" + d.joined() + "` for this type");
        return;
    }
    in.boolOp = d.has("and") ? BoolOp::And : d.has("or") ? BoolOp::Or : d.has("xor") ? BoolOp::Xor : BoolOp::None;
    d.need(3);
    in.d[0] = ops[0].reg;
    if (ops[0].kind != PtxOperand::Kind::Reg)
        d.unsupported("setp destination");
    if (ops[0].hasPair)
        in.d[1] = ops[0].reg2;
    in.a[0] = d.src(1, st);
    in.a[1] = d.src(2, st);
    if (ops.size() > 3)
        in.a[2] = d.srcAt(3, 2, PtxType::Pred);
    in.type2 = st;
    in.fn = setpHandler(st);
    if (!in.fn)
        d.unsupported("`" + d.joined() + "` for this type");
}

// cvt.dtype.stype d, a; cvt.frnd.{f16x2,bf16x2}.f32 d, a, b packs two conversions (a in
// the upper half). .relu and .satfinite apply to 16-bit float destinations.
void decodeCvt(Decoder& d, const OpcodeInfo&)
{
    if (d.has("tf32")) { // tf32 is no PtxType: the only type written is the source's
        const RoundMode r = d.in().round;
        if (d.typeCount() != 1 || d.type(0) != PtxType::F32 || d.has("relu") || d.has("satfinite")
            || (r != RoundMode::Rna && r != RoundMode::Rn && r != RoundMode::Rz))
            d.unsupported("`" + d.joined() + "` (to tf32: from f32 with .rna, .rn or .rz only)");
        d.in().d[0] = d.dst(0);
        d.in().a[0] = d.src(1, PtxType::F32);
        d.in().fn = &hCvtTf32;
        return;
    }
    if (d.typeCount() < 2)
        d.unsupported("cvt without two types");
    if (d.has("rna"))
        d.unsupported("`" + d.joined() + "` (.rna is for tf32 only)");
    Instr& in = d.in();
    in.type = d.type(0);
    in.type2 = d.type(1);
    in.relu = d.has("relu");
    in.satfinite = d.has("satfinite");
    if ((in.relu || in.satfinite) && !isHalf16(in.type))
        d.unsupported("`" + d.joined() + "` on this destination type");
    if (in.type2 == PtxType::F16x2 || in.type2 == PtxType::BF16x2)
        d.unsupported("`" + d.joined() + "` (packed source)");
    in.d[0] = d.dst(0);
    in.a[0] = d.src(1, in.type2);
    if (halfLanes(in.type) == 2) {
        if (in.type2 != PtxType::F32)
            d.unsupported("`" + d.joined() + "` (a packed pair from another type than f32)");
        in.a[1] = d.src(2, in.type2);
        in.fn = &hCvtPack;
        return;
    }
    in.fn = &hCvt;
}

void decodeCvta(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    const Space sp = d.space();
    const auto base = std::int64_t(sp == Space::Shared ? kSharedWindow : sp == Space::Local ? kLocalWindow : 0);
    in.imm = d.has("to") ? -base : base;
    in.d[0] = d.dst(0);
    in.a[0] = d.src(1, d.firstType());
    in.fn = &hCvta;
}

void decodeMov(Decoder& d, const OpcodeInfo&)
{
    d.need(2);
    Instr& in = d.in();
    const PtxType t = d.type();
    const PtxOperand& dst = d.ops()[0];
    const PtxOperand& s = d.ops()[1];
    if (s.kind == PtxOperand::Kind::Sym
        && (s.text == "%clock" || s.text == "%clock64" || s.text == "%globaltimer" || s.text == "%globaltimer_lo"
            || s.text == "%clock_hi" || s.text == "%globaltimer_hi")) {
        in.d[0] = d.dst(0);
        in.fn = s.text.ends_with("_hi") ? &hClockHi : &hClock;
        return;
    }
    // Packs and unpacks: the first element is the lowest bits; {0, %rs1} packs an immediate.
    if (dst.kind == PtxOperand::Kind::Vec) {
        in.a[0] = d.src(1, t);
        if (dst.regs.empty() || dst.regs.size() > 4)
            d.unsupported("mov unpack width");
        for (const std::string& imm : dst.elemImm)
            if (!imm.empty())
                d.unsupported("mov unpack into an immediate");
        in.nd = std::uint8_t(dst.regs.size());
        for (std::size_t k = 0; k < dst.regs.size(); ++k)
            in.d[k] = dst.regs[k];
        in.packBits = std::uint8_t(sizeOf(t) * 8 / in.nd);
        in.fn = &hUnpack;
        return;
    }
    in.d[0] = d.dst(0);
    if (s.kind == PtxOperand::Kind::Vec) {
        if (s.regs.empty() || s.regs.size() > 4)
            d.unsupported("mov pack width");
        in.na = std::uint8_t(s.regs.size());
        in.packBits = std::uint8_t(sizeOf(t) * 8 / in.na);
        const PtxType elem = in.packBits == 8 ? PtxType::B8 : in.packBits == 16 ? PtxType::B16 : PtxType::B32;
        for (std::size_t k = 0; k < s.regs.size(); ++k)
            in.a[k] = d.element(s, k, elem);
        in.fn = &hPack;
        return;
    }
    in.a[0] = d.srcAt(1, 0, t);
    in.fn = &hMov;
}

} // namespace kw::sim
