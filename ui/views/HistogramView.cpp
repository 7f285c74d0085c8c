#include "views/HistogramView.hpp"

#include "PlotTheme.hpp"

#include "data/HostBuffer.hpp"
#include "views/BufferStats.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QSpinBox>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>

namespace kw {

HistogramView::HistogramView(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this))
    , bins_(new QSpinBox(this))
    , summary_(new QLabel(this))
{
    bins_->setRange(1, 4096);
    bins_->setValue(64);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Bins:"), this));
    top->addWidget(bins_);
    top->addSpacing(12);
    top->addWidget(summary_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);

    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setPen(QPen(QColor(31, 119, 180).darker(120)));
    bars_->setBrush(QColor(31, 119, 180, 170));
    bars_->setWidthType(QCPBars::wtPlotCoords);
    plot_->yAxis->setLabel(tr("count"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(bins_, qOverload<int>(&QSpinBox::valueChanged), this, [this] { rebuild(); });
    PlotTheme::follow(plot_);
}

void HistogramView::setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name)
{
    buffer_ = std::move(buffer);
    plot_->xAxis->setLabel(name);
    rebuild();
}

void HistogramView::setBins(int bins) { bins_->setValue(bins); }

struct HistogramView::Counts {
    BufferStats stats;
    double lo = 0, hi = 0;
    std::vector<std::size_t> bins;
};

void HistogramView::rebuild()
{
    const quint64 generation = ++generation_;
    ready_ = false;
    bars_->data()->clear();
    if (!buffer_) {
        summary_->clear();
        plot_->replot();
        ready_ = true;
        emit updated();
        return;
    }
    summary_->setText(tr("Counting %1 values...").arg(buffer_->count()));
    // The result comes back through the event loop with qApp as context: this widget
    // may be gone by then, which the QPointer tells on the UI thread.
    QPointer<HistogramView> self(this);
    QThreadPool::globalInstance()->start([self, data = buffer_, bins = bins_->value(), generation] {
        Counts c;
        c.stats = BufferStats::compute(*data);
        c.lo = c.stats.min;
        c.hi = c.stats.max;
        int n = bins;
        if (c.hi <= c.lo) {
            c.lo -= 0.5;
            c.hi += 0.5;
            n = 1;
        }
        if (c.stats.finite > 0)
            c.bins = BufferStats::histogram(*data, c.lo, c.hi, n);
        QMetaObject::invokeMethod(
            qApp,
            [self, c = std::move(c), generation] {
                if (self)
                    self->showCounts(c, generation);
            },
            Qt::QueuedConnection);
    });
}

void HistogramView::showCounts(const Counts& c, quint64 generation)
{
    if (generation != generation_)
        return; // the buffer or bin count changed meanwhile
    const BufferStats& s = c.stats;
    summary_->setText(tr("%1 values, %2 finite, min %3, max %4, mean %5")
                          .arg(s.count)
                          .arg(s.finite)
                          .arg(s.min, 0, 'g', 6)
                          .arg(s.max, 0, 'g', 6)
                          .arg(s.mean, 0, 'g', 6));
    ready_ = true;
    if (c.bins.empty()) {
        plot_->replot();
        emit updated();
        return;
    }
    const double w = (c.hi - c.lo) / double(c.bins.size());
    QVector<double> keys, values;
    for (std::size_t i = 0; i < c.bins.size(); ++i) {
        keys.push_back(c.lo + (double(i) + 0.5) * w);
        values.push_back(double(c.bins[i]));
    }
    bars_->setWidth(w);
    bars_->setData(keys, values, true);
    plot_->xAxis->setRange(c.lo - w, c.hi + w);
    plot_->yAxis->setRange(0, *std::max_element(values.begin(), values.end()) * 1.08 + 1);
    plot_->replot();
    emit updated();
}

} // namespace kw
