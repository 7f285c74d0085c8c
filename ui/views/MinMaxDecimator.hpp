#pragma once
// Reduces a long series to at most two points per pixel column (the column's minimum
// and maximum, in index order), so a line through them looks like the full series
// while the plot only ever draws about twice its width in points.
//
// An instance keeps the min and max of every block of `blockSize` elements, built in
// one pass, so each later decimation reads only the block summaries plus the partial
// blocks at column edges: a few hundred thousand reads for any range of 10^7 points.
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

namespace kw {

class HostBuffer;

class MinMaxDecimator {
public:
    struct Output {
        std::vector<double> x, y; // x is the element index
        bool decimated = false;   // false: every visible point is in the output
    };
    static constexpr std::size_t blockSize = 64;

    explicit MinMaxDecimator(std::shared_ptr<const HostBuffer> data);

    // Element i sits at x = i. [xFrom, xTo] is the visible range; one point beyond each
    // end is included so the line continues past the edges. NaN values are skipped;
    // a column with no value that is not NaN produces a NaN point (a gap in the line).
    Output decimate(double xFrom, double xTo, int columns) const;

    // The same without a block summary: one pass over the visible range.
    static Output decimate(const HostBuffer& data, double xFrom, double xTo, int columns);
    // A quick approximation while the summary is being built: reads at most about
    // maxReads evenly spaced elements, so narrow extremes may be missed.
    static Output decimateSampled(const HostBuffer& data, double xFrom, double xTo, int columns, std::size_t maxReads);

    std::size_t count() const { return count_; }

private:
    struct Block {
        double min, max; // +inf/-inf when the block holds only NaN
        std::size_t minAt, maxAt;
    };
    // The visible index range [first, last], one beyond each end of [xFrom, xTo].
    static bool visibleRange(std::size_t count, double xFrom, double xTo, std::size_t& first, std::size_t& last);
    template <class Get>
    static Output decimateWith(Get&& get, const Block* blocks, std::size_t count, double xFrom, double xTo, int columns,
                               std::size_t step = 1);

    std::shared_ptr<const HostBuffer> data_;
    std::size_t count_ = 0;
    std::vector<Block> blocks_;
};

} // namespace kw
