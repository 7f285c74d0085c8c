#include "views/HeatMap.hpp"

#include "PlotTheme.hpp"

#include "data/HostBuffer.hpp"
#include "views/AspectRatioLock.hpp"
#include "views/HeatMapCells.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QSpinBox>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

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
    : QWidget(parent)
    , plot_(new QCustomPlot(this))
    , slice_(new QSpinBox(this))
    , sliceLabel_(new QLabel(tr("Slice (z):"), this))
    , readout_(new QLabel(this))
    , squareCells_(new QCheckBox(tr("Square cells"), this))
{
    controls_ = new QWidget(this);
    auto* top = new QHBoxLayout(controls_);
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(sliceLabel_);
    top->addWidget(slice_);
    squareCells_->setToolTip(
        tr("Keep the image's shape: a cell as wide as it is high. Off, the image is stretched to fill the view"));
    squareCells_->setChecked(true);
    top->addWidget(squareCells_);
    top->addStretch();
    readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Its words must not widen the panel (beside the Results' tabs they would narrow the
    // docks at 1366x768): shown whole where there is room, cut short where not.
    readout_->setMinimumWidth(1);
    readout_->setText(pointPrompt());
    top->addWidget(readout_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0); // the room of a low panel goes to the image
    layout->addWidget(controls_);
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
    // The image keeps its shape (a stretched picture misleads more than an empty margin
    // around it); stretched to fill the view on request.
    auto* lock = new AspectRatioLock(plot_);
    connect(squareCells_, &QCheckBox::toggled, lock, &AspectRatioLock::setActive);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        plot_->rescaleAxes();
        plot_->replot();
    });

    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { showValueUnder(e->pos()); });
    plot_->setToolTip(pointPrompt());

    sliceLabel_->hide();
    slice_->hide();
    connect(slice_, qOverload<int>(&QSpinBox::valueChanged), this, &HeatMap::setSlice);
    PlotTheme::follow(plot_);
}

void HeatMap::setBuffer(std::shared_ptr<const HostBuffer> buffer, std::vector<std::size_t> shape, const QString& name)
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
    readout_->setText(pointPrompt()); // the value under the mouse was the previous buffer's
    emit pointedAt({});
    rescaleAxes_ = true;
    fill();
}

QString HeatMap::describeElement(long long x, long long y) const
{
    if (!buffer_ || shape_.size() < 2)
        return {};
    const std::size_t rows = shape_[shape_.size() - 2], cols = shape_.back();
    if (x < 0 || y < 0 || std::size_t(x) >= cols || std::size_t(y) >= rows)
        return {};
    // The element itself, not the averaged cell a large image shows.
    const std::size_t i = std::size_t(slice_->value()) * rows * cols + std::size_t(y) * cols + std::size_t(x);
    if (i >= buffer_->count())
        return {};
    QString where = tr("x %1, y %2").arg(x).arg(y);
    if (shape_.size() == 3)
        where += tr(", z %1").arg(slice_->value());
    return tr("%1: %2").arg(where).arg(buffer_->at(i), 0, 'g', 7);
}

void HeatMap::showValueUnder(const QPoint& pixel)
{
    const double x = plot_->xAxis->pixelToCoord(pixel.x());
    const double y = plot_->yAxis->pixelToCoord(pixel.y());
    const QString text = describeElement(std::llround(x), std::llround(y));
    readout_->setText(text.isEmpty() ? pointPrompt() : text);
    emit pointedAt(text);
}

QString HeatMap::pointPrompt() { return tr("Point at a cell to read its value"); }

void HeatMap::setSlice(int slice)
{
    if (slice_->value() != slice) {
        slice_->setValue(slice); // re-enters through valueChanged
        return;
    }
    fill();
}

void HeatMap::fill()
{
    const quint64 generation = ++generation_;
    if (!buffer_ || shape_.size() < 2) {
        ready_ = true;
        emit updated();
        return;
    }
    const std::size_t rows = shape_[shape_.size() - 2], cols = shape_.back();
    const std::size_t offset = std::size_t(slice_->value()) * rows * cols;
    if (rows * cols <= syncCells) { // a millisecond or so: not worth a round trip
        showCells(HeatMapCells::average(*buffer_, rows, cols, offset, maxCells), generation);
        return;
    }
    ready_ = false;
    // The buffer is immutable and shared; the cells come back through the event loop
    // with qApp as context, since this widget may be gone by then.
    QPointer<HeatMap> self(this);
    QThreadPool::globalInstance()->start([self, data = buffer_, rows, cols, offset, generation] {
        auto cells = std::make_shared<const HeatMapCells>(HeatMapCells::average(*data, rows, cols, offset, maxCells));
        QMetaObject::invokeMethod(
            qApp,
            [self, cells, generation] {
                if (self)
                    self->showCells(*cells, generation);
            },
            Qt::QueuedConnection);
    });
}

void HeatMap::showCells(const HeatMapCells& cells, quint64 generation)
{
    if (generation != generation_)
        return; // a newer buffer or slice replaced the one these cells were made for
    ready_ = true;
    if (cells.nx > 0 && cells.ny > 0) {
        const int nx = cells.nx, ny = cells.ny;
        const double f = double(cells.factor);
        map_->data()->setSize(nx, ny);
        // Cell centres in element coordinates, so axes read as element indices.
        map_->data()->setRange(QCPRange(0.5 * f - 0.5, (nx - 0.5) * f - 0.5),
                               QCPRange(0.5 * f - 0.5, (ny - 0.5) * f - 0.5));
        if (nx == 1)
            map_->data()->setKeyRange(QCPRange(-0.5, 0.5));
        if (ny == 1)
            map_->data()->setValueRange(QCPRange(-0.5, 0.5));
        for (int cy = 0; cy < ny; ++cy)
            for (int cx = 0; cx < nx; ++cx)
                map_->data()->setCell(cx, cy, cells.values[std::size_t(cy) * std::size_t(nx) + std::size_t(cx)]);
        map_->rescaleDataRange(true);
    }
    if (std::exchange(rescaleAxes_, false))
        plot_->rescaleAxes();
    plot_->replot();
    emit updated();
}

} // namespace kw
