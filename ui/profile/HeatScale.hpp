#pragma once
// The colours of a counter's value, in a few steps from cold to hot, for the editor
// margin, the table and the legend alike. Light palettes run from pale yellow to
// deep red (ColorBrewer YlOrRd); dark ones from dim amber to bright red, so the hot
// end is the one that stands out on either.
#include <QColor>
#include <QPalette>

#include <cstdint>

namespace kw {

class HeatScale {
public:
    static constexpr int Levels = 8;
    // 0 for a zero value (no colour), else 1 (coldest) to Levels (the maximum).
    static int level(std::uint64_t value, std::uint64_t maximum);
    // Level 1 to Levels; level 0 has no colour (an invalid QColor).
    static QColor colour(int level, const QPalette& palette);
    static QColor colour(std::uint64_t value, std::uint64_t maximum, const QPalette& palette)
    {
        return colour(level(value, maximum), palette);
    }
    // Black or white, whichever reads on the background.
    static QColor textOn(const QColor& background);
};

} // namespace kw
