#include "ThemeColours.hpp"

namespace kw {

namespace {
QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}
} // namespace

bool ThemeColours::isDark(const QPalette& p)
{
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

QColor ThemeColours::error(const QPalette& p) { return isDark(p) ? QColor(255, 110, 100) : QColor(0xd9, 0x34, 0x2b); }

QColor ThemeColours::warning(const QPalette& p) { return isDark(p) ? QColor(240, 190, 70) : QColor(200, 130, 0); }

QColor ThemeColours::value(const QPalette& p) { return isDark(p) ? QColor(120, 170, 240) : QColor(40, 95, 170); }

QColor ThemeColours::tint(const QPalette& p, const QColor& accent, double amount)
{
    return mix(p.color(QPalette::Base), accent, amount);
}

QString ThemeColours::badFieldStyle(const QPalette& p)
{
    return QString("QLineEdit { background: %1; border: 1px solid %2; }")
        .arg(tint(p, error(p), 0.22).name(), error(p).name());
}

} // namespace kw
