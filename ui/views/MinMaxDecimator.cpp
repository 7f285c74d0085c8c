#include "views/MinMaxDecimator.hpp"

#include "views/BufferValues.hpp"

#include <algorithm>

namespace kw {

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();

// Min and max of [b, e) with their first indices. NaN compares false both ways, so it
// is skipped without a test of its own.
template <class Get>
inline void scan(Get& get, std::size_t b, std::size_t e, double& mn, std::size_t& imn, double& mx, std::size_t& imx,
                 std::size_t step = 1)
{
    for (std::size_t i = b; i < e; i += step) {
        const double v = get(i);
        if (v < mn) {
            mn = v;
            imn = i;
        }
        if (v > mx) {
            mx = v;
            imx = i;
        }
    }
}
} // namespace

MinMaxDecimator::MinMaxDecimator(std::shared_ptr<const HostBuffer> data)
    : data_(std::move(data))
    , count_(data_ ? data_->count() : 0)
{
    if (!data_)
        return;
    blocks_.resize((count_ + blockSize - 1) / blockSize);
    visitValues(*data_, [&](auto get) {
        for (std::size_t k = 0; k < blocks_.size(); ++k) {
            Block& bl = blocks_[k];
            bl = Block{inf, -inf, 0, 0};
            scan(get, k * blockSize, std::min(count_, (k + 1) * blockSize), bl.min, bl.minAt, bl.max, bl.maxAt);
        }
    });
}

bool MinMaxDecimator::visibleRange(std::size_t count, double xFrom, double xTo, std::size_t& first, std::size_t& last)
{
    if (count == 0 || !(xTo >= xFrom))
        return false;
    const double end = double(count - 1);
    const double lo = xFrom < 0 ? 0 : (xFrom > end ? end : xFrom);
    const double hi = xTo < 0 ? 0 : (xTo > end ? end : xTo);
    first = std::size_t(lo);
    last = std::size_t(hi) + (double(std::size_t(hi)) < hi ? 1 : 0);
    if (first > 0)
        --first;
    if (last + 1 < count)
        ++last;
    return true;
}

template <class Get>
MinMaxDecimator::Output MinMaxDecimator::decimateWith(Get&& get, const Block* blocks, std::size_t count, double xFrom,
                                                      double xTo, int columns, std::size_t step)
{
    Output out;
    std::size_t i0 = 0, i1 = 0;
    if (!visibleRange(count, xFrom, xTo, i0, i1))
        return out;
    if (columns < 1)
        columns = 1;
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
        double mn = inf, mx = -inf;
        std::size_t imn = 0, imx = 0;
        // Whole blocks inside [b, e) come from the summary, the ragged ends from the data.
        const std::size_t firstBlock = (b + blockSize - 1) / blockSize, endBlock = e / blockSize;
        if (blocks && firstBlock < endBlock) {
            scan(get, b, firstBlock * blockSize, mn, imn, mx, imx);
            for (std::size_t k = firstBlock; k < endBlock; ++k) {
                const Block& bl = blocks[k];
                if (bl.min < mn) {
                    mn = bl.min;
                    imn = bl.minAt;
                }
                if (bl.max > mx) {
                    mx = bl.max;
                    imx = bl.maxAt;
                }
            }
            scan(get, endBlock * blockSize, e, mn, imn, mx, imx);
        } else {
            scan(get, b, e, mn, imn, mx, imx, step);
        }
        if (mn == inf && mx == -inf) {
            out.x.push_back(double(b));
            out.y.push_back(std::numeric_limits<double>::quiet_NaN());
            continue;
        }
        if (mn == inf) { // only +inf values besides NaN: max alone
            imn = imx;
            mn = mx;
        } else if (mx == -inf) {
            imx = imn;
            mx = mn;
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

MinMaxDecimator::Output MinMaxDecimator::decimate(double xFrom, double xTo, int columns) const
{
    Output out;
    if (data_)
        visitValues(*data_, [&](auto get) { out = decimateWith(get, blocks_.data(), count_, xFrom, xTo, columns); });
    return out;
}

MinMaxDecimator::Output MinMaxDecimator::decimateSampled(const HostBuffer& data, double xFrom, double xTo, int columns,
                                                         std::size_t maxReads)
{
    Output out;
    std::size_t i0 = 0, i1 = 0;
    if (!visibleRange(data.count(), xFrom, xTo, i0, i1))
        return out;
    const std::size_t n = i1 - i0 + 1;
    const std::size_t step = std::max<std::size_t>(1, n / std::max<std::size_t>(1, maxReads));
    visitValues(data, [&](auto get) { out = decimateWith(get, nullptr, data.count(), xFrom, xTo, columns, step); });
    return out;
}

MinMaxDecimator::Output MinMaxDecimator::decimate(const HostBuffer& data, double xFrom, double xTo, int columns)
{
    Output out;
    visitValues(data, [&](auto get) { out = decimateWith(get, nullptr, data.count(), xFrom, xTo, columns); });
    return out;
}

} // namespace kw
