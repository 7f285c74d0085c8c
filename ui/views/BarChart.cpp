#include "views/BarChart.hpp"

#include "PlotTheme.hpp"

#include "data/DType.hpp"
#include "data/HostBuffer.hpp"
#include "launch/RunResult.hpp"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>

namespace kw {

BarChart::BarChart(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setWidth(0.9);
    bars_->setPen(Qt::NoPen);
    bars_->setBrush(QColor(31, 119, 180));
    plot_->xAxis->setLabel(tr("index (bin)"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        plot_->rescaleAxes();
        plot_->replot();
    });
    PlotTheme::follow(plot_);
}

bool BarChart::suits(const BufferResult& b)
{
    return !isFloating(b.data.dtype()) && b.shape.size() < 2 && b.data.count() > 0 && b.data.count() <= maxBars;
}

void BarChart::setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name)
{
    buffer_ = std::move(buffer);
    QVector<double> keys, values;
    const std::size_t n = buffer_ ? buffer_->count() : 0;
    keys.reserve(qsizetype(n));
    values.reserve(qsizetype(n));
    double top = 0;
    for (std::size_t i = 0; i < n; ++i) {
        keys << double(i);
        values << buffer_->at(i);
        top = std::max(top, buffer_->at(i));
    }
    bars_->setData(keys, values, true);
    plot_->yAxis->setLabel(name);
    plot_->xAxis->setRange(-0.5, double(n) - 0.5);
    plot_->yAxis->setRange(0, top > 0 ? top * 1.05 : 1.0);
    plot_->replot();
}

} // namespace kw
