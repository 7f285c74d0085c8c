// Half precision lanes: each half is computed in float and rounded once.
#include "sim/HalfHandlers.hpp"

#include "data/HalfFloat.hpp"
#include "sim/Arithmetic.hpp"
#include "sim/ExecHelpers.hpp"
#include "sim/Warp.hpp"

namespace kw::sim {

namespace {

// Half precision: computed in float and rounded once (exact for + - * / of halves).
template <template <class> class Op> struct HBin { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
    const int lanes = in.type == PtxType::F16x2 ? 2 : 1;
    forLanes(m, [&](int l) {
        std::uint64_t r = 0;
        for (int h = 0; h < lanes; ++h) {
            const float x = halfToFloat(std::uint16_t(a[l] >> (16 * h))), y = halfToFloat(std::uint16_t(b[l] >> (16 * h)));
            float v = Op<float>::f(x, y);
            if (in.sat) v = saturate01(v);
            r |= std::uint64_t(halfFromFloat(v)) << (16 * h);
        }
        d[l] = r;
    });
} };
template <template <class> class Op> struct HUn { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t* a = w.reg(in.a[0]);
    const int lanes = in.type == PtxType::F16x2 ? 2 : 1;
    forLanes(m, [&](int l) {
        std::uint64_t r = 0;
        for (int h = 0; h < lanes; ++h)
            r |= std::uint64_t(halfFromFloat(Op<float>::f(halfToFloat(std::uint16_t(a[l] >> (16 * h)))))) << (16 * h);
        d[l] = r;
    });
} };
struct HFma { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const int lanes = in.type == PtxType::F16x2 ? 2 : 1;
    forLanes(m, [&](int l) {
        std::uint64_t r = 0;
        for (int h = 0; h < lanes; ++h) {
            const double x = halfToFloat(std::uint16_t(a[l] >> (16 * h))), y = halfToFloat(std::uint16_t(b[l] >> (16 * h))),
                         z = halfToFloat(std::uint16_t(c[l] >> (16 * h)));
            float v = float(x * y + z); // exact product in double, one rounding to float, then to half
            if (in.sat) v = saturate01(v);
            r |= std::uint64_t(halfFromFloat(v)) << (16 * h);
        }
        d[l] = r;
    });
} };
struct HSetp { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* p = w.reg(in.d[0]);
    std::uint64_t* q = w.reg(in.d[1]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]), *c = w.reg(in.a[2]);
    const CmpOp cmp = in.cmp;
    const BoolOp bop = in.boolOp;
    const bool negC = in.negMask & 4;
    forLanes(m, [&](int l) {
        const bool r = compare<float>(cmp, halfToFloat(std::uint16_t(a[l])), halfToFloat(std::uint16_t(b[l])));
        const bool cv = (c[l] != 0) != negC;
        p[l] = combine(bop, r, cv);
        q[l] = combine(bop, !r, cv);
    });
} };
// set.cmp.dtype.f16: 1.0 in the destination type (f16: 0x3c00, f32: 1.0f) or all ones.
struct HSet { static void run(Warp& w, const Instr& in, std::uint32_t m) {
    std::uint64_t* d = w.reg(in.d[0]);
    const std::uint64_t *a = w.reg(in.a[0]), *b = w.reg(in.a[1]);
    const CmpOp cmp = in.cmp;
    const std::uint64_t one = in.type == PtxType::F16 ? 0x3c00u : in.type == PtxType::F32 ? 0x3f800000u : 0xffffffffu;
    forLanes(m, [&](int l) {
        d[l] = compare<float>(cmp, halfToFloat(std::uint16_t(a[l])), halfToFloat(std::uint16_t(b[l]))) ? one : 0;
    });
} };

} // namespace

Handler halfArithHandler(ArithOp op) {
    switch (op) {
    case ArithOp::Add: return &HBin<OpAdd>::run;
    case ArithOp::Sub: return &HBin<OpSub>::run;
    case ArithOp::Mul: return &HBin<OpMul>::run;
    case ArithOp::Min: return &HBin<OpMinF>::run;
    case ArithOp::Max: return &HBin<OpMaxF>::run;
    case ArithOp::Neg: return &HUn<OpNeg>::run;
    case ArithOp::Abs: return &HUn<OpAbs>::run;
    case ArithOp::Mad: return &HFma::run;
    default: return nullptr;
    }
}

void hHalfSetp(Warp& w, const Instr& in, std::uint32_t m) { HSetp::run(w, in, m); }
void hHalfSet(Warp& w, const Instr& in, std::uint32_t m) { HSet::run(w, in, m); }

} // namespace kw::sim
