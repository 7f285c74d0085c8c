#include "profile/HeatLegend.hpp"

#include "profile/HeatScale.hpp"
#include "profile/ProfileSummary.hpp"

#include <QPainter>

namespace kw {

namespace {
constexpr int swatch = 14;
}

HeatLegend::HeatLegend(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setMaximum(0);
}

void HeatLegend::setMaximum(std::uint64_t maximum)
{
    maximum_ = maximum;
    setToolTip(maximum_ ? tr("Each step stands for an eighth of the hottest line's %1; "
                             "a line without any has no colour.")
                              .arg(ProfileSummary::count(maximum_))
                        : tr("No line counted any of the chosen counter."));
    updateGeometry();
    update();
}

QString HeatLegend::lowText() const { return maximum_ ? QStringLiteral("1") : QStringLiteral("0"); }

QString HeatLegend::highText() const { return ProfileSummary::compact(maximum_); }

QSize HeatLegend::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    const int w = fm.horizontalAdvance(lowText()) + fm.horizontalAdvance(QStringLiteral("99.9k")) + 12
        + HeatScale::Levels * swatch;
    return {w, std::max(fm.height(), swatch) + 4};
}

void HeatLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    const int cy = height() / 2;
    int x = 0;
    p.setPen(palette().color(QPalette::WindowText));
    const int lowW = fm.horizontalAdvance(lowText());
    p.drawText(QRect(x, 0, lowW, height()), Qt::AlignVCenter, lowText());
    x += lowW + 4;
    for (int level = 1; level <= HeatScale::Levels; ++level) {
        const QColor c = maximum_ ? HeatScale::colour(level, palette()) : palette().color(QPalette::Mid);
        p.fillRect(QRect(x, cy - swatch / 2, swatch, swatch), c);
        x += swatch;
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(QRect(lowW + 4, cy - swatch / 2, HeatScale::Levels * swatch - 1, swatch - 1));
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(x + 4, 0, width() - x - 4, height()), Qt::AlignVCenter | Qt::AlignLeft, highText());
}

} // namespace kw
