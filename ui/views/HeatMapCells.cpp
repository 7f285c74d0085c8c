#include "views/HeatMapCells.hpp"

#include "views/BufferValues.hpp"

#include <algorithm>
#include <cmath>

namespace kw {

HeatMapCells HeatMapCells::average(const HostBuffer& data, std::size_t rows, std::size_t cols, std::size_t offset,
                                   int maxCells)
{
    HeatMapCells out;
    const std::size_t plane = rows * cols;
    if (rows == 0 || cols == 0 || offset + plane > data.count())
        return out;
    const std::size_t f = std::max<std::size_t>(1, (std::max(rows, cols) + maxCells - 1) / std::size_t(maxCells));
    out.factor = f;
    out.nx = int((cols + f - 1) / f);
    out.ny = int((rows + f - 1) / f);
    // Sums per cell, accumulated row by row so the buffer is read in memory order.
    std::vector<double> sums(std::size_t(out.nx) * std::size_t(out.ny), 0.0);
    std::vector<std::size_t> counts(sums.size(), 0);
    visitValues(data, [&](auto get) {
        for (std::size_t r = 0; r < rows; ++r) {
            double* sumRow = sums.data() + (r / f) * std::size_t(out.nx);
            std::size_t* countRow = counts.data() + (r / f) * std::size_t(out.nx);
            const std::size_t base = offset + r * cols;
            for (std::size_t c = 0; c < cols; ++c) {
                const double v = get(base + c);
                if (std::isfinite(v)) {
                    sumRow[c / f] += v;
                    ++countRow[c / f];
                }
            }
        }
    });
    out.values.resize(sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i)
        out.values[i] = counts[i] ? sums[i] / double(counts[i]) : std::nan("");
    return out;
}

} // namespace kw
