#include "sim/MatrixOp.hpp"

namespace kw::sim {

int matrixElemBytes(MatrixElem e)
{
    switch (e) {
    case MatrixElem::S8:
    case MatrixElem::U8: return 1;
    case MatrixElem::F16:
    case MatrixElem::BF16: return 2;
    case MatrixElem::F64: return 8;
    default: return 4;
    }
}

int matrixElemsPerReg(MatrixElem e)
{
    switch (e) {
    case MatrixElem::S8:
    case MatrixElem::U8: return 4;
    case MatrixElem::F16:
    case MatrixElem::BF16: return 2;
    default: return 1;
    }
}

} // namespace kw::sim

namespace kw::sim {

// PTX's mma.sync layouts ("Matrix fragments for mma.m16n8k*" and ".m8n8k*"), in one form
// for every shape the simulator runs: lane = 4 * group + t, and a multiplicand's lane holds
// runs of w = 4 / element-bytes consecutive k (one 32-bit register's worth; 1 for tf32 and
// f64), its runs stepping first across the rows g and g + 8 (A with 16 rows) and then by
// 4 * w along k.
std::uint32_t matrixElementAt(const MatrixFragment& f, int lane, std::uint32_t j)
{
    if (f.layout == FragmentLayout::Wmma)
        return (std::uint32_t(lane) * f.perLane() + j) % f.elements();
    const std::uint32_t g = std::uint32_t(lane) >> 2, t = std::uint32_t(lane) & 3;
    const std::uint32_t w = matrixElemBytes(f.elem) >= 4 ? 1 : std::uint32_t(4 / matrixElemBytes(f.elem));
    std::uint32_t row = 0, col = 0;
    switch (f.layout) {
    case FragmentLayout::MmaA:
        if (f.rows == 16) {
            row = g + 8 * ((j / w) % 2);
            col = w * t + j % w + 4 * w * (j / (2 * w));
        } else {
            row = g;
            col = w * t + j % w + 4 * w * (j / w);
        }
        break;
    case FragmentLayout::MmaB:
        row = w * t + j % w + 4 * w * (j / w);
        col = g;
        break;
    default: // MmaC
        row = g + 8 * (j / 2);
        col = 2 * t + j % 2;
        break;
    }
    return row * f.cols + col;
}

} // namespace kw::sim
