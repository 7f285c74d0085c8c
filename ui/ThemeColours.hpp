#pragma once
// Colours for states (error, warning, a computed value) derived from the palette,
// so light and dark desktops both read well; nothing here is a fixed background.
#include <QColor>
#include <QPalette>

namespace kw {

class ThemeColours {
public:
    static bool isDark(const QPalette& p);
    static QColor error(const QPalette& p); // text and borders of errors
    static QColor warning(const QPalette& p);
    static QColor value(const QPalette& p); // an evaluated value beside its expression
    // A faint background of accent over the palette's base.
    static QColor tint(const QPalette& p, const QColor& accent, double amount = 0.18);
    // A line-edit style marking a refused field.
    static QString badFieldStyle(const QPalette& p);
};

} // namespace kw
