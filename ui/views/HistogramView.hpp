#pragma once
// The distribution of a buffer's finite values as bars, with an adjustable bin count.
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

private:
    void rebuild();

    QCustomPlot* plot_;
    QCPBars* bars_;
    QSpinBox* bins_;
    QLabel* summary_;
    std::shared_ptr<const HostBuffer> buffer_;
};

} // namespace kw
