#include "profile/HeatScale.hpp"

#include "ThemeColours.hpp"

#include <algorithm>
#include <cmath>

namespace kw {

namespace {
constexpr QRgb light[HeatScale::Levels]
    = {0xffeda0, 0xfed976, 0xfeb24c, 0xfd8d3c, 0xfc4e2a, 0xe31a1c, 0xbd0026, 0x800026};
constexpr QRgb dark[HeatScale::Levels]
    = {0x4d3a12, 0x6e4c12, 0x8f5a14, 0xb06416, 0xcf6a1a, 0xe8601f, 0xf84a2c, 0xff3030};
} // namespace

int HeatScale::level(std::uint64_t value, std::uint64_t maximum)
{
    if (value == 0 || maximum == 0)
        return 0;
    // Linear: a line with a tenth of the hottest line's count reads as a tenth of it.
    const double share = double(std::min(value, maximum)) / double(maximum);
    return std::clamp(int(std::ceil(share * Levels)), 1, Levels);
}

QColor HeatScale::colour(int level, const QPalette& palette)
{
    if (level <= 0)
        return {};
    const int i = std::min(level, Levels) - 1;
    return QColor(ThemeColours::isDark(palette) ? dark[i] : light[i]);
}

QColor HeatScale::textOn(const QColor& background)
{
    // Relative luminance (sRGB approximation) against the middle grey.
    const double y = 0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return y > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace kw
