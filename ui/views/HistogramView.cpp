#include "views/HistogramView.hpp"

#include "data/HostBuffer.hpp"
#include "views/BufferStats.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace kw {

HistogramView::HistogramView(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), bins_(new QSpinBox(this)),
      summary_(new QLabel(this))
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
}

void HistogramView::setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name)
{
    buffer_ = std::move(buffer);
    plot_->xAxis->setLabel(name);
    rebuild();
}

void HistogramView::setBins(int bins)
{
    bins_->setValue(bins);
}

void HistogramView::rebuild()
{
    bars_->data()->clear();
    if (!buffer_) {
        plot_->replot();
        return;
    }
    const BufferStats s = BufferStats::compute(*buffer_);
    summary_->setText(tr("%1 values, %2 finite, min %3, max %4, mean %5")
                          .arg(s.count)
                          .arg(s.finite)
                          .arg(s.min, 0, 'g', 6)
                          .arg(s.max, 0, 'g', 6)
                          .arg(s.mean, 0, 'g', 6));
    if (s.finite == 0) {
        plot_->replot();
        return;
    }
    int bins = bins_->value();
    double lo = s.min, hi = s.max;
    if (hi <= lo) {
        lo -= 0.5;
        hi += 0.5;
        bins = 1;
    }
    const auto counts = BufferStats::histogram(*buffer_, lo, hi, bins);
    const double w = (hi - lo) / double(counts.size());
    QVector<double> keys, values;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        keys.push_back(lo + (double(i) + 0.5) * w);
        values.push_back(double(counts[i]));
    }
    bars_->setWidth(w);
    bars_->setData(keys, values, true);
    plot_->xAxis->setRange(lo - w, hi + w);
    plot_->yAxis->setRange(0, *std::max_element(values.begin(), values.end()) * 1.08 + 1);
    plot_->replot();
}

} // namespace kw
