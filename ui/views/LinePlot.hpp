#pragma once
// A 1-D buffer as a line over its index. Only the visible x-range is drawn, reduced
// to min/max per pixel column, and recomputed whenever the range changes, so zoom and
// pan stay smooth for 10^7 points. The block summary that makes this cheap is built on
// a worker thread for a large buffer; until it is ready the plot shows a sampled
// approximation. A small buffer's summary is built at once.
#include <QWidget>

#include <cstddef>
#include <memory>

class QCustomPlot;
class QCPGraph;

namespace kw {

class HostBuffer;
class MinMaxDecimator;

class LinePlot : public QWidget {
    Q_OBJECT
public:
    explicit LinePlot(QWidget* parent = nullptr);
    static constexpr std::size_t summarisedHere = 1 << 16; // elements; larger buffers on a worker
    ~LinePlot() override;

    // The plot keeps the buffer alive; name labels the y axis.
    void setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name);
    void clear();

    QCustomPlot* plot() const { return plot_; }
    int drawnPointCount() const;                           // points handed to QCustomPlot after decimation
    bool isExact() const { return decimator_ != nullptr; } // the block summary is in use

signals:
    void exactDataReady(); // the summary arrived and the plot shows exact min/max

public slots:
    void resetView(); // whole buffer, y fitted to its min/max

private:
    void updateData();
    void markDirty();
    int columns() const;
    void fitY();
    void summaryReady(std::shared_ptr<const MinMaxDecimator> decimator, quint64 generation);

    QCustomPlot* plot_;
    QCPGraph* graph_;
    std::shared_ptr<const HostBuffer> buffer_;
    std::shared_ptr<const MinMaxDecimator> decimator_;
    quint64 generation_ = 0; // which setBuffer a finished summary belongs to
    bool yFitted_ = false;   // y still as resetView set it: refit on exact data
    bool dirty_ = false;
    int lastColumns_ = 0;
};

} // namespace kw
