#include "DefaultWindowSize.hpp"

#include <algorithm>

namespace kw {

QRect DefaultWindowSize::within(const QRect& available)
{
    // Small screens get all of it; large ones a comfortable part, centred.
    const bool small = available.width() <= 1600 || available.height() <= 900;
    const double share = small ? 1.0 : 0.85;
    const int w = std::min(available.width(), std::max(800, int(available.width() * share)));
    const int h = std::min(available.height(), std::max(600, int(available.height() * share)));
    QRect r(0, 0, std::min(w, available.width()), std::min(h, available.height()));
    r.moveCenter(available.center());
    return r;
}

} // namespace kw
