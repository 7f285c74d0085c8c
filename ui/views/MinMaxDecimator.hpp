#pragma once
// Reduces a long series to at most two points per pixel column (the column's minimum
// and maximum, in index order), so a line through them looks like the full series
// while the plot only ever draws about twice its width in points.
#include <cstddef>
#include <limits>
#include <vector>

namespace kw {

class HostBuffer;

class MinMaxDecimator {
public:
    struct Output {
        std::vector<double> x, y;   // x is the element index
        bool decimated = false;     // false: every visible point is in the output
    };

    // Element i sits at x = i. [xFrom, xTo] is the visible range; one point beyond each
    // end is included so the line continues past the edges. NaN values are skipped;
    // a column with no finite value produces a NaN point (a gap in the line).
    static Output decimate(const HostBuffer& data, double xFrom, double xTo, int columns);

    template <class Get>
    static Output decimate(Get&& get, std::size_t count, double xFrom, double xTo, int columns);
};

template <class Get>
MinMaxDecimator::Output MinMaxDecimator::decimate(Get&& get, std::size_t count, double xFrom,
                                                  double xTo, int columns)
{
    Output out;
    if (count == 0 || !(xTo >= xFrom))
        return out;
    if (columns < 1)
        columns = 1;
    const double last = double(count - 1);
    const double lo = xFrom < 0 ? 0 : (xFrom > last ? last : xFrom);
    const double hi = xTo < 0 ? 0 : (xTo > last ? last : xTo);
    std::size_t i0 = std::size_t(lo);
    std::size_t i1 = std::size_t(hi) + (double(std::size_t(hi)) < hi ? 1 : 0);
    if (i0 > 0)
        --i0;
    if (i1 + 1 < count)
        ++i1;
    const std::size_t n = i1 - i0 + 1;

    if (n <= std::size_t(columns) * 2) {
        out.x.reserve(n);
        out.y.reserve(n);
        for (std::size_t i = i0; i <= i1; ++i) {
            out.x.push_back(double(i));
            out.y.push_back(get(i));
        }
        return out;
    }

    out.decimated = true;
    out.x.reserve(std::size_t(columns) * 2);
    out.y.reserve(std::size_t(columns) * 2);
    for (int c = 0; c < columns; ++c) {
        const std::size_t b = i0 + n * std::size_t(c) / std::size_t(columns);
        const std::size_t e = i0 + n * (std::size_t(c) + 1) / std::size_t(columns);
        double mn = 0, mx = 0;
        std::size_t imn = 0, imx = 0;
        bool any = false;
        for (std::size_t i = b; i < e; ++i) {
            const double v = get(i);
            if (v != v)
                continue; // NaN
            if (!any) {
                mn = mx = v;
                imn = imx = i;
                any = true;
            } else if (v < mn) {
                mn = v;
                imn = i;
            } else if (v > mx) {
                mx = v;
                imx = i;
            }
        }
        if (!any) {
            out.x.push_back(double(b));
            out.y.push_back(std::numeric_limits<double>::quiet_NaN());
            continue;
        }
        if (imn == imx) {
            out.x.push_back(double(imn));
            out.y.push_back(mn);
        } else if (imn < imx) {
            out.x.push_back(double(imn));
            out.y.push_back(mn);
            out.x.push_back(double(imx));
            out.y.push_back(mx);
        } else {
            out.x.push_back(double(imx));
            out.y.push_back(mx);
            out.x.push_back(double(imn));
            out.y.push_back(mn);
        }
    }
    return out;
}

} // namespace kw
