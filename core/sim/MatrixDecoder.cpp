// wmma.load, wmma.store, wmma.mma, mma.sync, ldmatrix, stmatrix and movmatrix: the shapes,
// layouts and element types PTX gives them, and fragments whose register count fits
// (MatrixOp.hpp).
#include "sim/DecodeFunctions.hpp"

#include "sim/Decoder.hpp"
#include "sim/Handlers.hpp"

#include <fmt/format.h>

#include <optional>
#include <regex>

namespace kw::sim {

namespace {

struct MatrixShape {
    std::uint16_t m = 0, n = 0, k = 0;
};

std::optional<MatrixElem> elemOf(const std::string& part)
{
    static const std::pair<const char*, MatrixElem> names[]
        = {{"f16", MatrixElem::F16}, {"bf16", MatrixElem::BF16}, {"tf32", MatrixElem::Tf32}, {"f32", MatrixElem::F32},
           {"f64", MatrixElem::F64}, {"s8", MatrixElem::S8},     {"u8", MatrixElem::U8},     {"s32", MatrixElem::S32}};
    for (const auto& [name, e] : names)
        if (part == name)
            return e;
    return std::nullopt;
}

// The multiplicand types of each shape, and the accumulators they go with.
bool multiplicandFits(MatrixShape s, MatrixElem e)
{
    const bool big = (s.m == 16 && s.n == 16 && s.k == 16) || (s.m == 32 && s.n == 8 && s.k == 16)
        || (s.m == 8 && s.n == 32 && s.k == 16);
    switch (e) {
    case MatrixElem::F16:
    case MatrixElem::BF16:
    case MatrixElem::S8:
    case MatrixElem::U8: return big;
    case MatrixElem::Tf32: return s.m == 16 && s.n == 16 && s.k == 8;
    case MatrixElem::F64: return s.m == 8 && s.n == 8 && s.k == 4;
    default: return false;
    }
}

// mma.sync's shapes and the multiplicand types the simulator runs them with.
bool mmaShapeFits(MatrixShape s, MatrixElem e)
{
    const auto is = [&](int m, int n, int k) { return s.m == m && s.n == n && s.k == k; };
    switch (e) {
    case MatrixElem::F16:
    case MatrixElem::BF16: return is(16, 8, 16) || is(16, 8, 8);
    case MatrixElem::Tf32: return is(16, 8, 8) || is(16, 8, 4);
    case MatrixElem::F64: return is(8, 8, 4);
    case MatrixElem::S8:
    case MatrixElem::U8: return is(16, 8, 32) || is(16, 8, 16) || is(8, 8, 16);
    default: return false;
    }
}

bool accumulatorFits(MatrixElem ab, MatrixElem c)
{
    switch (ab) {
    case MatrixElem::F16: return c == MatrixElem::F16 || c == MatrixElem::F32;
    case MatrixElem::BF16:
    case MatrixElem::Tf32: return c == MatrixElem::F32;
    case MatrixElem::F64: return c == MatrixElem::F64;
    case MatrixElem::S8:
    case MatrixElem::U8: return c == MatrixElem::S32;
    default: return false;
    }
}

bool accumulatorFitsShape(MatrixShape s, MatrixElem c)
{
    for (MatrixElem ab : {MatrixElem::F16, MatrixElem::BF16, MatrixElem::Tf32, MatrixElem::F64, MatrixElem::S8})
        if (multiplicandFits(s, ab) && accumulatorFits(ab, c))
            return true;
    return false;
}

class MatrixDecoder {
public:
    explicit MatrixDecoder(Decoder& d)
        : d_(d)
    {
        const auto& parts = d.parts();
        static const std::regex shapeRe("m([0-9]+)n([0-9]+)(?:k([0-9]+))?");
        for (std::size_t i = 1; i < parts.size(); ++i) {
            const std::string& p = parts[i];
            std::smatch m;
            if (p == "row" || p == "col")
                layouts_.push_back(p == "col");
            else if (std::regex_match(p, m, shapeRe))
                shape_ = {std::uint16_t(std::stoi(m[1])), std::uint16_t(std::stoi(m[2])),
                          std::uint16_t(m[3].matched ? std::stoi(m[3]) : 0)};
            else if (auto e = elemOf(p))
                elems_.push_back(*e);
            else if (p == "u4" || p == "s4" || p == "b1")
                d.unsupported(fmt::format("`{}`: sub-byte matrix elements", d.joined()));
            else if (p == "e4m3" || p == "e5m2" || p == "e3m2" || p == "e2m3" || p == "e2m1")
                d.unsupported(fmt::format("`{}`: 8-bit and smaller floating-point matrix elements", d.joined()));
        }
        if (!d.written("sync") || !d.written("aligned"))
            d.unsupported(fmt::format("`{}` without .sync.aligned", d.joined()));
        if (!shape_.m)
            d.unsupported(fmt::format("`{}` without a shape", d.joined()));
    }

    void load(char which)
    {
        MatrixOp op;
        op.kind = MatrixOp::Kind::Load;
        const MatrixElem e = oneElem();
        if (which == 'c' ? !accumulatorFitsShape(shape_, e) : !multiplicandFits(shape_, e))
            refuseTypes();
        op.colMajor = oneLayout();
        d_.need(2);
        op.frag[0] = fragment(d_.ops()[0], which, e, true, FragmentLayout::Wmma);
        memoryOperands(op, 1, 2);
        finish(std::move(op), &hWmmaLoad);
    }

    void store()
    {
        MatrixOp op;
        op.kind = MatrixOp::Kind::Store;
        const MatrixElem e = oneElem();
        if (!accumulatorFitsShape(shape_, e))
            refuseTypes();
        op.colMajor = oneLayout();
        d_.need(2);
        op.frag[0] = fragment(d_.ops()[1], 'c', e, false, FragmentLayout::Wmma);
        memoryOperands(op, 0, 2);
        finish(std::move(op), &hWmmaStore);
    }

    // wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype d, a, b, c
    void mma()
    {
        if (layouts_.size() != 2)
            d_.unsupported(fmt::format("`{}` without the layouts of a and b", d_.joined()));
        if (elems_.size() == 2) // .dtype.ctype for f16 multiplicands
            elems_ = {elems_[0], MatrixElem::F16, MatrixElem::F16, elems_[1]};
        finish(product(&multiplicandFits, false), &hMatrixMma);
    }

    // mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c
    void mmaSync()
    {
        if (d_.written("sp"))
            d_.unsupported(fmt::format("`{}`: sparse matrix products", d_.joined()));
        if (layouts_ != std::vector<bool>{false, true})
            d_.unsupported(fmt::format("`{}`: mma.sync is run with .row.col only (other layouts belong to the "
                                       "m8n8k4 f16 shape)",
                                       d_.joined()));
        if (shape_.m == 8 && shape_.n == 8 && shape_.k == 4 && elems_.size() == 4 && elems_[1] == MatrixElem::F16)
            d_.unsupported(fmt::format("`{}`: the m8n8k4 f16 shape (its quad-pair layout)", d_.joined()));
        finish(product(&mmaShapeFits, true), &hMatrixMma);
    }

    // ldmatrix (load) and stmatrix: .sync.aligned.m8n8.x1|x2|x4{.trans}{.shared}.b16; the
    // registers, one per 8 x 8 matrix, then or after the address.
    void rows(bool load)
    {
        if (shape_.m != 8 || shape_.n != 8 || shape_.k != 0 || !d_.written("b16"))
            d_.unsupported(fmt::format("`{}`: only the m8n8 shape of 16-bit elements", d_.joined()));
        const std::size_t count = d_.written("x4") ? 4 : d_.written("x2") ? 2 : d_.written("x1") ? 1 : 0;
        if (!count)
            d_.unsupported(fmt::format("`{}` without .x1, .x2 or .x4", d_.joined()));
        d_.need(2);
        const PtxOperand& regs = d_.ops()[load ? 0 : 1];
        if (registerCount(regs) != count)
            d_.unsupported(
                fmt::format("`{}` with {} registers; .x{} takes {}", d_.joined(), registerCount(regs), count, count));
        MatrixOp op;
        op.kind = load ? MatrixOp::Kind::LoadRows : MatrixOp::Kind::StoreRows;
        op.colMajor = d_.written("trans");
        for (std::size_t i = 0; i < count; ++i)
            op.frag[i] = eightByEight(registerOf(regs, i, load));
        memoryOperands(op, load ? 1 : 0, 2);
        if (op.hasStride)
            d_.unsupported(fmt::format("`{}` with a third operand", d_.joined()));
        finish(std::move(op), load ? &hLoadRows : &hStoreRows);
    }

    // movmatrix.sync.aligned.m8n8.trans.b16 d, a
    void transpose()
    {
        if (shape_.m != 8 || shape_.n != 8 || shape_.k != 0 || !d_.written("b16") || !d_.written("trans"))
            d_.unsupported(fmt::format("`{}`: only movmatrix.sync.aligned.m8n8.trans.b16", d_.joined()));
        d_.need(2);
        MatrixOp op;
        op.kind = MatrixOp::Kind::Transpose;
        op.frag[0] = eightByEight(registerOf(d_.ops()[0], 0, true));
        op.frag[1] = eightByEight(registerOf(d_.ops()[1], 0, false));
        finish(std::move(op), &hTranspose);
    }

private:
    MatrixElem oneElem() const
    {
        if (elems_.size() != 1)
            refuseTypes();
        return elems_[0];
    }
    bool oneLayout() const
    {
        if (layouts_.size() != 1)
            d_.unsupported(fmt::format("`{}` without one layout (.row or .col)", d_.joined()));
        return layouts_[0];
    }
    [[noreturn]] void refuseTypes() const
    {
        d_.unsupported(fmt::format("`{}`: element types PTX does not give this shape", d_.joined()));
    }

    // A product d = a b + c: the types .dtype.atype.btype.ctype checked against the shape
    // (`fits`) and each other, the fragments in wmma's layout or PTX's (mma.sync).
    MatrixOp product(bool (*fits)(MatrixShape, MatrixElem), bool ptxLayout) const
    {
        if (elems_.size() != 4)
            refuseTypes();
        const MatrixElem dt = elems_[0], at = elems_[1], bt = elems_[2], ct = elems_[3];
        const bool ints = at == MatrixElem::S8 || at == MatrixElem::U8;
        const bool sameKind = ints ? (bt == MatrixElem::S8 || bt == MatrixElem::U8) : at == bt;
        if (!fits(shape_, at) || !sameKind || !accumulatorFits(at, dt) || !accumulatorFits(at, ct))
            refuseTypes();
        if (d_.written("rz") || d_.written("rm") || d_.written("rp"))
            d_.unsupported(fmt::format("`{}`: directed rounding of a matrix product", d_.joined()));
        MatrixOp op;
        op.kind = MatrixOp::Kind::Mma;
        op.satfinite = d_.written("satfinite");
        d_.need(4);
        const auto& ops = d_.ops();
        const auto layout = [&](FragmentLayout mma) { return ptxLayout ? mma : FragmentLayout::Wmma; };
        op.frag[0] = fragment(ops[0], 'c', dt, true, layout(FragmentLayout::MmaC));
        op.frag[1] = fragment(ops[1], 'a', at, false, layout(FragmentLayout::MmaA));
        op.frag[2] = fragment(ops[2], 'b', bt, false, layout(FragmentLayout::MmaB));
        op.frag[3] = fragment(ops[3], 'c', ct, false, layout(FragmentLayout::MmaC));
        return op;
    }

    // A fragment operand {r, ...} of matrix `which` (a: m x k, b: k x n, c: m x n): its
    // register count must hold the matrix a whole number of times (1, 2 or 4) over the
    // warp's 32 lanes (wmma), or exactly once (mma.sync).
    MatrixFragment fragment(const PtxOperand& o, char which, MatrixElem e, bool written, FragmentLayout layout) const
    {
        if (o.kind != PtxOperand::Kind::Vec)
            d_.unsupported(fmt::format("`{}` with a fragment that is not a {{register, ...}} list", d_.joined()));
        MatrixFragment f;
        f.elem = e;
        f.layout = layout;
        f.rows = which == 'b' ? shape_.k : shape_.m;
        f.cols = which == 'a' ? shape_.k : shape_.n;
        const PtxType regType = e == MatrixElem::F64 ? PtxType::F64 : PtxType::B32;
        for (std::size_t k = 0; k < o.regs.size(); ++k) {
            if (written && k < o.elemImm.size() && !o.elemImm[k].empty())
                d_.unsupported(fmt::format("`{}` writing into an immediate", d_.joined()));
            f.regs.push_back(d_.element(o, k, regType));
        }
        const std::uint32_t slots = 32 * f.perLane();
        const bool exact = layout != FragmentLayout::Wmma;
        if (slots == 0 || slots % f.elements() != 0 || slots / f.elements() > (exact ? 1u : 4u))
            d_.unsupported(fmt::format("`{}` with a fragment of {} registers, which does not hold a {} x {} matrix",
                                       d_.joined(), f.regs.size(), f.rows, f.cols));
        return f;
    }

    static std::size_t registerCount(const PtxOperand& o)
    {
        return o.kind == PtxOperand::Kind::Vec ? o.regs.size() : o.kind == PtxOperand::Kind::Reg ? 1 : 0;
    }

    // Register i of an operand that is a register or a {register, ...} list.
    std::uint32_t registerOf(const PtxOperand& o, std::size_t i, bool written) const
    {
        if (o.kind == PtxOperand::Kind::Reg)
            return o.reg;
        if (o.kind != PtxOperand::Kind::Vec || (written && i < o.elemImm.size() && !o.elemImm[i].empty()))
            d_.unsupported(fmt::format("`{}` with an operand that is not a register", d_.joined()));
        return d_.element(o, i, PtxType::B32);
    }

    // One 8 x 8 matrix of 16-bit elements in a register of each lane, in mma's accumulator layout.
    static MatrixFragment eightByEight(std::uint32_t reg)
    {
        MatrixFragment f;
        f.elem = MatrixElem::F16;
        f.layout = FragmentLayout::MmaC;
        f.rows = f.cols = 8;
        f.regs = {reg};
        return f;
    }

    void memoryOperands(MatrixOp& op, std::size_t memAt, std::size_t strideAt)
    {
        Instr& in = d_.in();
        const PtxOperand& mem = d_.ops()[memAt];
        if (mem.kind != PtxOperand::Kind::Mem)
            d_.unsupported(fmt::format("`{}` without an address operand", d_.joined()));
        in.space = d_.space();
        if (in.space != Space::Generic && in.space != Space::Global && in.space != Space::Shared)
            d_.unsupported(fmt::format("`{}` in a state space other than .global or .shared", d_.joined()));
        if (mem.memSpace != Space::Generic && in.space == Space::Generic)
            in.space = mem.memSpace;
        in.addr = mem.reg;
        op.offset = mem.offset;
        if (d_.ops().size() > strideAt) {
            op.hasStride = true;
            in.a[0] = d_.src(strideAt, PtxType::U32);
        }
    }

    void finish(MatrixOp op, Handler h)
    {
        Instr& in = d_.in();
        in.warpSync = true; // the lanes meet: the instruction is the whole warp's
        in.imm = d_.env().matrixOp(std::move(op));
        in.fn = h;
    }

    Decoder& d_;
    std::vector<bool> layouts_; // in order: true for .col
    MatrixShape shape_;
    std::vector<MatrixElem> elems_;
};

} // namespace

void decodeWmma(Decoder& d, const OpcodeInfo&)
{
    MatrixDecoder wmma(d);
    const auto& parts = d.parts();
    const std::string which = parts.size() > 2 ? parts[2] : "";
    if (d.has("load") && (which == "a" || which == "b" || which == "c"))
        return wmma.load(which[0]);
    if (d.has("store") && which == "d")
        return wmma.store();
    if (d.has("mma"))
        return wmma.mma();
    d.unsupported(fmt::format("instruction `{}`", d.joined()));
}

void decodeMma(Decoder& d, const OpcodeInfo&) { MatrixDecoder(d).mmaSync(); }

void decodeMatrixRows(Decoder& d, const OpcodeInfo& row) { MatrixDecoder(d).rows(row.name == "ldmatrix"); }

void decodeMovmatrix(Decoder& d, const OpcodeInfo&) { MatrixDecoder(d).transpose(); }

} // namespace kw::sim
