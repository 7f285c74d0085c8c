#include "PresentationScaler.hpp"

#include <Qsci/qsciscintilla.h>
#include <qcustomplot.h>

#include <QApplication>

namespace kw {

namespace {
QFont scaled(QFont f, double k)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * k);
    else if (f.pixelSize() > 0)
        f.setPixelSize(int(f.pixelSize() * k + 0.5));
    return f;
}

// Every axis a plot draws: its axis rects' and its colour scales' (whose axis sits in an
// axis rect of its own, not among the plot's).
std::vector<QCPAxis*> axesOf(QCustomPlot* plot)
{
    std::vector<QCPAxis*> axes;
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes())
            axes.push_back(axis);
    for (QCPColorScale* scale : plot->findChildren<QCPColorScale*>())
        axes.push_back(scale->axis());
    return axes;
}

bool insideEditor(const QWidget* w)
{
    for (; w; w = w->parentWidget())
        if (qobject_cast<const QsciScintilla*>(w))
            return true; // the editor scales its own lexer fonts
    return false;
}
} // namespace

void PresentationScaler::enlarge(QWidget* root)
{
    restore();
    active_ = true;
    appFont_ = QApplication::font();
    // Widgets with their own font ignore the application's; note them before it changes.
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->testAttribute(Qt::WA_SetFont) || insideEditor(w))
            continue;
        widgets_.emplace_back(w, w->font());
    }
    QApplication::setFont(scaled(appFont_, factor_));
    for (auto& [w, f] : widgets_)
        if (w)
            w->setFont(scaled(f, factor_));
    for (QCustomPlot* plot : root->findChildren<QCustomPlot*>()) {
        PlotFonts saved;
        saved.plot = plot;
        for (QCPAxis* axis : axesOf(plot)) {
            saved.axes.emplace_back(axis->tickLabelFont(), axis->labelFont());
            axis->setTickLabelFont(scaled(axis->tickLabelFont(), factor_));
            axis->setLabelFont(scaled(axis->labelFont(), factor_));
        }
        saved.legend = plot->legend->font();
        plot->legend->setFont(scaled(saved.legend, factor_));
        plots_.push_back(std::move(saved));
        plot->replot();
    }
}

void PresentationScaler::restore()
{
    if (!active_)
        return;
    active_ = false;
    QApplication::setFont(appFont_);
    for (auto& [w, f] : widgets_)
        if (w)
            w->setFont(f);
    widgets_.clear();
    for (PlotFonts& saved : plots_) {
        if (!saved.plot)
            continue;
        std::size_t i = 0;
        for (QCPAxis* axis : axesOf(saved.plot)) {
            if (i >= saved.axes.size())
                break;
            axis->setTickLabelFont(saved.axes[i].first);
            axis->setLabelFont(saved.axes[i].second);
            ++i;
        }
        saved.plot->legend->setFont(saved.legend);
        saved.plot->replot();
    }
    plots_.clear();
}

} // namespace kw
