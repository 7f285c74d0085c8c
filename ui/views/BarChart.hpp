#pragma once
// A short 1-D buffer of counts (a histogram's bins) as one bar per element.
#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPBars;

namespace kw {

class HostBuffer;
struct BufferResult;

class BarChart : public QWidget {
    Q_OBJECT
public:
    explicit BarChart(QWidget* parent = nullptr);
    // Counts are whole numbers in a buffer short enough for a bar each.
    static bool suits(const BufferResult& buffer);
    static constexpr std::size_t maxBars = 4096;

    void setBuffer(std::shared_ptr<const HostBuffer> buffer, const QString& name);
    QCustomPlot* plot() const { return plot_; }
    QCPBars* bars() const { return bars_; }

private:
    QCustomPlot* plot_;
    QCPBars* bars_;
    std::shared_ptr<const HostBuffer> buffer_;
};

} // namespace kw
