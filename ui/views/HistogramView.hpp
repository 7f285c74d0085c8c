#pragma once
// The distribution of a buffer's finite values as bars, with an adjustable bin count.
// The counting passes run on a worker thread so a 10^7-element buffer never blocks the UI.
#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPBars;
class QSpinBox;
class QLabel;

namespace kw {

class HostBuffer;

class HistogramView : public QWidget {
    Q_OBJECT
public:
    explicit HistogramView(QWidget* parent = nullptr);

    void setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name);
    void setBins(int bins);

    QCustomPlot* plot() const { return plot_; }
    QCPBars* bars() const { return bars_; }
    bool isReady() const { return ready_; } // the bars show the current buffer and bins

signals:
    void updated();

private:
    struct Counts;
    void rebuild();
    void showCounts(const Counts& counts, quint64 generation);

    QCustomPlot* plot_;
    QCPBars* bars_;
    QSpinBox* bins_;
    QLabel* summary_;
    std::shared_ptr<const HostBuffer> buffer_;
    quint64 generation_ = 0;
    bool ready_ = false;
};

} // namespace kw
