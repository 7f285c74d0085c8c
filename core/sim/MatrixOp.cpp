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
