#include "views/HeatMap.hpp"

#include "data/HostBuffer.hpp"
#include "views/BufferValues.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kw {

namespace {
QCPColorGradient viridis()
{
    QCPColorGradient g;
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setColorStopAt(0.0, QColor(68, 1, 84));
    g.setColorStopAt(0.25, QColor(59, 82, 139));
    g.setColorStopAt(0.5, QColor(33, 145, 140));
    g.setColorStopAt(0.75, QColor(94, 201, 98));
    g.setColorStopAt(1.0, QColor(253, 231, 37));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}
} // namespace

HeatMap::HeatMap(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), slice_(new QSpinBox(this)),
      sliceLabel_(new QLabel(tr("Slice (z):"), this))
{
    auto* top = new QHBoxLayout;
    top->addWidget(sliceLabel_);
    top->addWidget(slice_);
    top->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);

    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(true);
    map_->setGradient(viridis());
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    map_->setColorScale(scale_);
    auto* group = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    plot_->yAxis->setRangeReversed(true);
    plot_->xAxis->setLabel(tr("x (column)"));
    plot_->yAxis->setLabel(tr("y (row)"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        plot_->rescaleAxes();
        plot_->replot();
    });

    sliceLabel_->hide();
    slice_->hide();
    connect(slice_, qOverload<int>(&QSpinBox::valueChanged), this, &HeatMap::setSlice);
}

void HeatMap::setBuffer(std::shared_ptr<const HostBuffer> buffer, std::vector<std::size_t> shape,
                        const QString& name)
{
    buffer_ = std::move(buffer);
    shape_ = std::move(shape);
    const int slices = shape_.size() == 3 ? int(shape_[0]) : 1;
    const QSignalBlocker block(slice_);
    slice_->setRange(0, std::max(0, slices - 1));
    slice_->setValue(0);
    slice_->setVisible(slices > 1);
    sliceLabel_->setVisible(slices > 1);
    scale_->axis()->setLabel(name);
    fill();
    plot_->rescaleAxes();
    plot_->replot();
}

void HeatMap::setSlice(int slice)
{
    if (slice_->value() != slice) {
        slice_->setValue(slice); // re-enters through valueChanged
        return;
    }
    fill();
    plot_->replot();
}

void HeatMap::fill()
{
    if (!buffer_ || shape_.size() < 2)
        return;
    const std::size_t rows = shape_[shape_.size() - 2], cols = shape_.back();
    const std::size_t plane = rows * cols;
    const std::size_t offset = std::size_t(slice_->value()) * plane;
    if (rows == 0 || cols == 0 || offset + plane > buffer_->count())
        return;
    // One cell of the map averages f x f elements.
    const std::size_t f = std::max<std::size_t>(1, (std::max(rows, cols) + maxCells - 1) / maxCells);
    const int nx = int((cols + f - 1) / f), ny = int((rows + f - 1) / f);
    map_->data()->setSize(nx, ny);
    // Cell centres in element coordinates, so axes read as element indices.
    map_->data()->setRange(QCPRange(0.5 * double(f) - 0.5, (nx - 0.5) * double(f) - 0.5),
                           QCPRange(0.5 * double(f) - 0.5, (ny - 0.5) * double(f) - 0.5));
    if (nx == 1)
        map_->data()->setKeyRange(QCPRange(-0.5, 0.5));
    if (ny == 1)
        map_->data()->setValueRange(QCPRange(-0.5, 0.5));
    visitValues(*buffer_, [&](auto get) {
        for (int cy = 0; cy < ny; ++cy) {
            for (int cx = 0; cx < nx; ++cx) {
                double sum = 0;
                int n = 0;
                const std::size_t r1 = std::min(rows, std::size_t(cy + 1) * f);
                const std::size_t c1 = std::min(cols, std::size_t(cx + 1) * f);
                for (std::size_t r = std::size_t(cy) * f; r < r1; ++r)
                    for (std::size_t c = std::size_t(cx) * f; c < c1; ++c) {
                        const double v = get(offset + r * cols + c);
                        if (std::isfinite(v)) {
                            sum += v;
                            ++n;
                        }
                    }
                map_->data()->setCell(cx, cy, n ? sum / n : std::nan(""));
            }
        }
    });
    map_->rescaleDataRange(true);
}

} // namespace kw
