#pragma once
// A 1-D buffer as a line over its index. Only the visible x-range is drawn, reduced
// to min/max per pixel column, and recomputed whenever the range changes, so zoom and
// pan stay smooth for 10^7 points.
#include <QWidget>

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
    ~LinePlot() override;

    // The plot keeps the buffer alive; name labels the y axis.
    void setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name);
    void clear();

    QCustomPlot* plot() const { return plot_; }
    int drawnPointCount() const;   // points handed to QCustomPlot after decimation

public slots:
    void resetView();              // whole buffer, y fitted to its min/max

private:
    void updateData();
    void markDirty();
    int columns() const;

    QCustomPlot* plot_;
    QCPGraph* graph_;
    std::shared_ptr<const HostBuffer> buffer_;
    std::unique_ptr<MinMaxDecimator> decimator_;
    bool dirty_ = false;
    int lastColumns_ = 0;
};

} // namespace kw
