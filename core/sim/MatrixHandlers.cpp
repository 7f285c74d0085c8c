// wmma.load, wmma.store, wmma.mma and mma.sync, ldmatrix, stmatrix and movmatrix for the
// whole warp. Fragments hold their elements as MatrixOp.hpp lays them out; memory is
// reached lane by lane through Warp::access, so bounds, the observers (racecheck, the
// profiler) and faults see every element. An
// element of a product sums exact products (those of f16, bf16, tf32 and 8-bit values are
// exact in double) in double and is rounded once to the accumulator's type; f64 takes one
// fused multiply-add after another. The GPU's tensor cores may differ in the last bits of
// floating-point sums: CUDA does not specify their order or intermediate precision.
#include "data/HalfFloat.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/Half16.hpp"
#include "sim/Handlers.hpp"
#include "sim/Warp.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <vector>

namespace kw::sim {

namespace {

const MatrixOp& matrixOp(const Warp& w, const Instr& in) { return w.fn->matrixOps[std::size_t(in.imm)]; }

const char* verb(const MatrixOp& op)
{
    switch (op.kind) {
    case MatrixOp::Kind::Load: return "wmma.load";
    case MatrixOp::Kind::Store: return "wmma.store";
    case MatrixOp::Kind::Mma: return op.frag[0].layout == FragmentLayout::Wmma ? "wmma.mma" : "mma.sync";
    case MatrixOp::Kind::LoadRows: return "ldmatrix";
    case MatrixOp::Kind::StoreRows: return "stmatrix";
    case MatrixOp::Kind::Transpose: return "movmatrix";
    }
    return "";
}

// The instruction is the warp's: every one of its 32 lanes executes it together.
bool wholeWarp(Warp& w, const Instr& in, std::uint32_t m)
{
    if (m == 0xffffffffu)
        return true;
    const MatrixOp& op = matrixOp(w, in);
    if (w.exists != 0xffffffffu)
        w.fault(FaultKind::Other,
                fmt::format("{} needs a whole warp of 32 threads; this warp has {} (the block's size is not a "
                            "multiple of 32)",
                            verb(op), __builtin_popcount(w.exists)),
                -1, in);
    else
        w.fault(FaultKind::Other,
                fmt::format("{} needs all 32 lanes of the warp together; only {} execute it here (the others "
                            "exited or took another branch)",
                            verb(op), __builtin_popcount(m)),
                -1, in);
    return false;
}

// The value of slot j (0 <= j < perLane) of lane l, as the bits of one element.
std::uint64_t slotBits(const Warp& w, const MatrixFragment& f, int lane, std::uint32_t j)
{
    const int per = matrixElemsPerReg(f.elem);
    const std::uint64_t r = w.reg(f.regs[j / std::uint32_t(per)])[lane];
    if (per == 1)
        return f.elem == MatrixElem::F64 ? r : (r & 0xffffffffu);
    const int bits = 32 / per;
    return (r >> ((j % std::uint32_t(per)) * std::uint32_t(bits))) & ((std::uint64_t(1) << bits) - 1);
}

double valueOf(MatrixElem e, std::uint64_t bits)
{
    switch (e) {
    case MatrixElem::F16: return halfToDouble(std::uint16_t(bits));
    case MatrixElem::BF16: return bfloat16ToDouble(std::uint16_t(bits));
    case MatrixElem::Tf32: return get<float>(bits & ~std::uint64_t(0x1fff)); // the 13 low mantissa bits do not count
    case MatrixElem::F32: return get<float>(bits);
    case MatrixElem::F64: return get<double>(bits);
    case MatrixElem::S8: return double(std::int8_t(bits));
    case MatrixElem::U8: return double(std::uint8_t(bits));
    case MatrixElem::S32: return double(std::int32_t(bits));
    }
    return 0;
}

// A matrix's elements' bits in row-major order, read from (or written to) a fragment.
using Elements = std::vector<std::uint64_t>;

// A wmma fragment that holds its matrix more than once gives the first copy (the lowest slot).
Elements readFragment(const Warp& w, const MatrixFragment& f)
{
    Elements e(f.elements());
    const std::uint32_t per = f.perLane();
    for (int lane = 31; lane >= 0; --lane)
        for (std::uint32_t j = per; j-- > 0;)
            e[matrixElementAt(f, lane, j)] = slotBits(w, f, lane, j);
    return e;
}

// Writes every slot of the fragment (each copy) from the elements' bits.
void writeFragment(Warp& w, const MatrixFragment& f, const Elements& e)
{
    const int per = matrixElemsPerReg(f.elem);
    const int bits = per == 1 ? 64 : 32 / per;
    for (int lane = 0; lane < 32; ++lane)
        for (std::size_t r = 0; r < f.regs.size(); ++r) {
            std::uint64_t v = 0;
            for (int p = 0; p < per; ++p) {
                const std::uint64_t x
                    = e[matrixElementAt(f, lane, std::uint32_t(r) * std::uint32_t(per) + std::uint32_t(p))];
                v |= per == 1 ? x : (x & ((std::uint64_t(1) << bits) - 1)) << (p * bits);
            }
            w.reg(f.regs[r])[lane] = v;
        }
}

// The address and stride every lane gave, when they agree and are aligned: the matrix at a
// multiple of the fragment's size in a lane's registers, as PTX asks (32 bytes, CUDA's
// 256-bit rule, for f16 multiplicands and f32 accumulators; 8 for an s8/u8 m16n16k16
// multiplicand, which cuda-samples' immaTensorCoreGemm steps by 16 bytes), and the stride
// a multiple of 16 bytes, as CUDA asks of ldm.
bool placeOf(Warp& w, const Instr& in, const MatrixOp& op, std::uint64_t& base, std::uint64_t& stride)
{
    const MatrixFragment& f = op.frag[0];
    const std::uint64_t* A = w.reg(in.addr);
    const std::uint64_t* S = w.reg(in.a[0]);
    base = A[0] + std::uint64_t(op.offset);
    stride = op.hasStride ? std::uint32_t(S[0]) : (op.colMajor ? f.rows : f.cols);
    for (int l = 1; l < 32; ++l)
        if (A[l] != A[0] || (op.hasStride && std::uint32_t(S[l]) != std::uint32_t(S[0]))) {
            w.fault(FaultKind::Other,
                    fmt::format("{}: the warp's lanes gave different {} (lane 0: {:#x}, lane {}: {:#x}); every lane "
                                "must give the same",
                                verb(op), A[l] != A[0] ? "addresses" : "strides",
                                A[l] != A[0] ? A[0] : std::uint32_t(S[0]), l,
                                A[l] != A[0] ? A[l] : std::uint32_t(S[l])),
                    l, in);
            return false;
        }
    const std::uint64_t bytes = std::uint64_t(matrixElemBytes(f.elem));
    const std::uint64_t align = f.regs.size() * (f.elem == MatrixElem::F64 ? 8 : 4);
    if (base % align) {
        w.fault(FaultKind::MisalignedAddress,
                fmt::format("{}: the matrix at {:#x} is not aligned to {} bytes (the fragment's size in a lane's "
                            "registers), which the matrix load and store need",
                            verb(op), base, align),
                0, in);
        return false;
    }
    if ((stride * bytes) % 16) {
        w.fault(FaultKind::Other,
                fmt::format("{}: a stride of {} elements ({} bytes) is not a multiple of 16 bytes, which the matrix "
                            "load and store need",
                            verb(op), stride, stride * bytes),
                0, in);
        return false;
    }
    return true;
}

// Each element's memory access, in memory order, 32 at a time: element i by lane i mod 32,
// each group delivered to the observers as one access of the warp (the log keeps one access
// per lane). So racecheck sees every element, and the profiler counts a contiguous matrix
// as coalesced, as the GPU's own wide loads of it are.
template <class F> bool eachElement(Warp& w, const Instr& in, const MatrixOp& op, F access)
{
    const MatrixFragment& f = op.frag[0];
    std::uint64_t base = 0, stride = 0;
    if (!placeOf(w, in, op, base, stride))
        return false;
    const std::uint32_t bytes = std::uint32_t(matrixElemBytes(f.elem)), n = f.elements();
    const std::uint32_t inner = op.colMajor ? f.rows : f.cols; // the contiguous dimension
    const bool write = op.kind == MatrixOp::Kind::Store;
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t outer = i / inner, along = i % inner;
        const std::uint32_t r = op.colMajor ? along : outer, c = op.colMajor ? outer : along;
        const std::uint64_t at = base + (std::uint64_t(outer) * stride + along) * bytes;
        std::uint8_t* p = w.access(in.space, at, bytes, write, int(i % 32), in);
        if (!p)
            return false;
        access(r * f.cols + c, p, bytes);
        if (i % 32 == 31 || i + 1 == n)
            w.deliverAccesses(in);
    }
    return true;
}

std::uint64_t roundTo(MatrixElem e, double v, bool satfinite)
{
    switch (e) {
    case MatrixElem::F16: return std::isnan(v) ? kCanonicalNaN16 : halfFromDouble(v);
    case MatrixElem::F32: return put(float(v));
    case MatrixElem::F64: return put(v);
    case MatrixElem::S32: {
        // Products of 8-bit integers summed over k <= 16 with an s32 addend are exact in double.
        const auto wide = std::int64_t(v);
        if (satfinite) {
            const std::int64_t lo = std::numeric_limits<std::int32_t>::min(),
                               hi = std::numeric_limits<std::int32_t>::max();
            return std::uint32_t(std::int32_t(std::clamp(wide, lo, hi)));
        }
        return std::uint32_t(std::uint64_t(wide));
    }
    default: return 0;
    }
}

// Row r of 8 x 8 matrix i (.trans: its column r) is the 16 bytes at lane 8i + r's address;
// move(p, at) moves the 16-bit element at p to or from element `at` (row-major) of the
// matrix, for each of the eight in a row.
template <class F> bool eachRow(Warp& w, const Instr& in, int i, bool write, F move)
{
    const MatrixOp& op = matrixOp(w, in);
    const std::uint64_t* A = w.reg(in.addr);
    for (int r = 0; r < 8; ++r) {
        const int lane = 8 * i + r;
        std::uint8_t* p = w.access(in.space, A[lane] + std::uint64_t(op.offset), 16, write, lane, in);
        if (!p)
            return false;
        for (int c = 0; c < 8; ++c)
            move(p + 2 * c, std::size_t(op.colMajor ? c * 8 + r : r * 8 + c));
    }
    return true;
}

} // namespace

void hWmmaLoad(Warp& w, const Instr& in, std::uint32_t m)
{
    if (!wholeWarp(w, in, m))
        return;
    const MatrixOp& op = matrixOp(w, in);
    Elements e(op.frag[0].elements());
    const bool ok = eachElement(w, in, op, [&](std::uint32_t s, const std::uint8_t* p, std::uint32_t bytes) {
        std::uint64_t v = 0;
        std::memcpy(&v, p, bytes);
        e[s] = v;
    });
    if (ok)
        writeFragment(w, op.frag[0], e);
}

void hWmmaStore(Warp& w, const Instr& in, std::uint32_t m)
{
    if (!wholeWarp(w, in, m))
        return;
    const MatrixOp& op = matrixOp(w, in);
    const Elements e = readFragment(w, op.frag[0]);
    eachElement(w, in, op,
                [&](std::uint32_t s, std::uint8_t* p, std::uint32_t bytes) { std::memcpy(p, &e[s], bytes); });
}

void hMatrixMma(Warp& w, const Instr& in, std::uint32_t m)
{
    if (!wholeWarp(w, in, m))
        return;
    const MatrixOp& op = matrixOp(w, in);
    const MatrixFragment &D = op.frag[0], &A = op.frag[1], &B = op.frag[2], &C = op.frag[3];
    const Elements a = readFragment(w, A), b = readFragment(w, B), c = readFragment(w, C);
    const std::uint32_t rows = D.rows, cols = D.cols, depth = A.cols;
    std::vector<double> av(a.size()), bv(b.size());
    for (std::size_t i = 0; i < av.size(); ++i)
        av[i] = valueOf(A.elem, a[i]);
    for (std::size_t i = 0; i < bv.size(); ++i)
        bv[i] = valueOf(B.elem, b[i]);
    Elements d(D.elements());
    for (std::uint32_t r = 0; r < rows; ++r)
        for (std::uint32_t col = 0; col < cols; ++col) {
            double acc = valueOf(C.elem, c[r * cols + col]);
            if (D.elem == MatrixElem::F64) { // one fused multiply-add after another, as each rounds in f64
                for (std::uint32_t k = 0; k < depth; ++k)
                    acc = std::fma(av[r * depth + k], bv[k * cols + col], acc);
            } else {
                double sum = 0;
                for (std::uint32_t k = 0; k < depth; ++k)
                    sum += av[r * depth + k] * bv[k * cols + col];
                acc += sum;
            }
            d[r * cols + col] = roundTo(D.elem, acc, op.satfinite);
        }
    writeFragment(w, D, d);
}

// ldmatrix and stmatrix. Each lane moves one row, so the observers get the instruction's
// accesses as one, 16 bytes a lane: the profiler counts a quarter warp's eight rows to a
// wavefront, as the hardware moves one matrix at a time.
void hLoadRows(Warp& w, const Instr& in, std::uint32_t m)
{
    if (!wholeWarp(w, in, m))
        return;
    const MatrixOp& op = matrixOp(w, in);
    for (int i = 0; i < 4 && !op.frag[i].regs.empty(); ++i) {
        Elements e(64);
        if (!eachRow(w, in, i, false, [&](const std::uint8_t* p, std::size_t at) {
                std::uint16_t v;
                std::memcpy(&v, p, 2);
                e[at] = v;
            }))
            return;
        writeFragment(w, op.frag[i], e);
    }
    w.deliverAccesses(in);
}

void hStoreRows(Warp& w, const Instr& in, std::uint32_t m)
{
    if (!wholeWarp(w, in, m))
        return;
    const MatrixOp& op = matrixOp(w, in);
    for (int i = 0; i < 4 && !op.frag[i].regs.empty(); ++i) {
        const Elements e = readFragment(w, op.frag[i]);
        if (!eachRow(w, in, i, true, [&](std::uint8_t* p, std::size_t at) {
                const auto v = std::uint16_t(e[at]);
                std::memcpy(p, &v, 2);
            }))
            return;
    }
    w.deliverAccesses(in);
}

// movmatrix.trans: d is a transposed.
void hTranspose(Warp& w, const Instr& in, std::uint32_t m)
{
    if (!wholeWarp(w, in, m))
        return;
    const MatrixOp& op = matrixOp(w, in);
    const Elements a = readFragment(w, op.frag[1]);
    Elements d(64);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c)
            d[std::size_t(r * 8 + c)] = a[std::size_t(c * 8 + r)];
    writeFragment(w, op.frag[0], d);
}

} // namespace kw::sim
