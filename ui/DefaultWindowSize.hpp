#pragma once
// The size a window opens at when no saved layout says otherwise: most of the
// screen's free area, never more than it, so a 1366x768 laptop sees the whole window.
#include <QRect>

namespace kw {

class DefaultWindowSize {
public:
    // The window's frame geometry inside available (a screen's free area).
    static QRect within(const QRect& available);
};

} // namespace kw
