#include "views/LinePlot.hpp"

#include "PlotTheme.hpp"

#include "data/HostBuffer.hpp"
#include "views/MinMaxDecimator.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QPointer>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kw {

LinePlot::LinePlot(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    graph_ = plot_->addGraph();
    graph_->setPen(QPen(QColor(31, 119, 180), 1.0));
    // Antialiasing a dense min/max envelope costs time and only blurs it.
    graph_->setAntialiased(false);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->xAxis->setLabel(tr("index"));
    // Indices read best whole: "3333100", not "3.3331e6".
    plot_->xAxis->setNumberFormat(QStringLiteral("f"));
    plot_->xAxis->setNumberPrecision(0);
    plot_->axisRect()->setRangeZoomFactor(0.85);

    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &LinePlot::markDirty);
    // Once the user moves y, exact data arriving later must not move it back.
    connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { yFitted_ = false; });
    // Re-decimate once per frame, however many range changes a drag produced.
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
        if (dirty_ || columns() != lastColumns_)
            updateData();
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, &LinePlot::resetView);
    setToolTip(tr("Drag to pan, wheel to zoom, double-click to show everything"));
    PlotTheme::follow(plot_);
}

LinePlot::~LinePlot() = default;

void LinePlot::setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name)
{
    buffer_ = std::move(buffer);
    decimator_.reset();
    const quint64 generation = ++generation_;
    // A small buffer is summarised here, in less time than a worker takes to answer: the
    // plot is exact at once and drawn once, not as a preview and again.
    const bool small = buffer_ && buffer_->count() <= summarisedHere;
    if (small)
        decimator_ = std::make_shared<const MinMaxDecimator>(buffer_);
    else if (buffer_) {
        // The buffer is immutable and shared, so the worker may read it while the UI
        // draws the sampled preview. The result comes back through the event loop;
        // qApp is the context because this widget may be gone by then.
        QPointer<LinePlot> self(this);
        QThreadPool::globalInstance()->start([self, data = buffer_, generation] {
            auto decimator = std::make_shared<const MinMaxDecimator>(data);
            QMetaObject::invokeMethod(
                qApp,
                [self, decimator, generation] {
                    if (self)
                        self->summaryReady(decimator, generation);
                },
                Qt::QueuedConnection);
        });
    }
    plot_->yAxis->setLabel(name);
    resetView();
    if (small)
        emit exactDataReady();
}

void LinePlot::summaryReady(std::shared_ptr<const MinMaxDecimator> decimator, quint64 generation)
{
    if (generation != generation_)
        return; // a newer buffer replaced the one this summary was built for
    decimator_ = std::move(decimator);
    updateData();
    if (yFitted_)
        fitY();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit exactDataReady();
}

void LinePlot::clear()
{
    ++generation_;
    buffer_.reset();
    decimator_.reset();
    graph_->data()->clear();
    plot_->replot();
}

int LinePlot::drawnPointCount() const { return graph_->dataCount(); }

int LinePlot::columns() const
{
    // The widget width, not the axis rect's: that one is laid out only during the
    // replot that needs the data. A few extra columns cost nothing visible.
    return std::max(1, plot_->width());
}

void LinePlot::markDirty() { dirty_ = true; }

void LinePlot::resetView()
{
    if (!buffer_ || buffer_->count() == 0) {
        clear();
        return;
    }
    const double last = double(buffer_->count() - 1);
    plot_->xAxis->setRange(0, std::max(last, 1.0));
    updateData();
    fitY();
    plot_->replot();
}

void LinePlot::fitY()
{
    // The full-range envelope holds the global min and max.
    bool found = false;
    const QCPRange y = graph_->getValueRange(found);
    if (found) {
        const double pad = y.size() > 0 ? y.size() * 0.05 : std::max(1.0, std::abs(y.lower) * 0.1);
        plot_->yAxis->setRange(y.lower - pad, y.upper + pad);
    } else {
        plot_->yAxis->setRange(-1, 1);
    }
    yFitted_ = true;
}

void LinePlot::updateData()
{
    dirty_ = false;
    if (!buffer_)
        return;
    const QCPRange r = plot_->xAxis->range();
    lastColumns_ = columns();
    const auto out = decimator_ ? decimator_->decimate(r.lower, r.upper, lastColumns_)
                                : MinMaxDecimator::decimateSampled(*buffer_, r.lower, r.upper, lastColumns_, 1 << 18);
    QVector<QCPGraphData> points(qsizetype(out.x.size()));
    for (std::size_t i = 0; i < out.x.size(); ++i)
        points[qsizetype(i)] = QCPGraphData(out.x[i], out.y[i]);
    graph_->data()->set(points, true);
    graph_->setScatterStyle(out.decimated || out.x.size() > 200 ? QCPScatterStyle(QCPScatterStyle::ssNone)
                                                                : QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
}

} // namespace kw
