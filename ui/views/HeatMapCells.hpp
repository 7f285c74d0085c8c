#pragma once
// One plane of a 2-D/3-D buffer averaged down to at most maxCells per side: the heat
// map's data, computed in one pass so it can run on a worker thread.
#include <cstddef>
#include <vector>

namespace kw {

class HostBuffer;

struct HeatMapCells {
    int nx = 0, ny = 0;         // cells across (columns) and down (rows)
    std::size_t factor = 1;     // one cell averages factor x factor elements
    std::vector<double> values; // row-major, ny x nx; NaN where no element is finite

    // rows x cols elements starting at element `offset`, x (cols) fastest. Empty when
    // the plane does not fit in the buffer.
    static HeatMapCells average(const HostBuffer& data, std::size_t rows, std::size_t cols, std::size_t offset,
                                int maxCells);
};

} // namespace kw
