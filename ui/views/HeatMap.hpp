#pragma once
// A buffer with a 2-D (or 3-D, one slice at a time) shape as a colour map with a
// colour scale. Row 0 is at the top, as in an image; the image keeps its shape with
// square cells, centred, or fills the view with the Square cells box off. Large
// images are reduced to at most maxCells per side by averaging blocks of cells; that
// pass reads every element, so for large planes it runs on a worker thread and the
// map fills in when it is done.
#include <QWidget>

#include <cstddef>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCheckBox;
class QSpinBox;
class QLabel;

namespace kw {

class HostBuffer;
struct HeatMapCells;

class HeatMap : public QWidget {
    Q_OBJECT
public:
    explicit HeatMap(QWidget* parent = nullptr);

    // shape: {rows, cols} or {slices, rows, cols}, x (cols) fastest.
    void setBuffer(std::shared_ptr<const HostBuffer> buffer, std::vector<std::size_t> shape, const QString& name);
    void setSlice(int slice);

    // "x 3, y 1: 0.25" for the element at column x, row y of the shown slice; empty outside.
    QString describeElement(long long x, long long y) const;
    // The value under the mouse, as describeElement words it.
    QLabel* readout() const { return readout_; }
    QCheckBox* squareCellsBox() const { return squareCells_; }
    // The slice, Square cells and readout row, above the plot unless a panel puts it
    // elsewhere (a row it already has, where a low panel has no row to spare; such a
    // panel may hide the readout and show pointedAt's words itself).
    QWidget* controls() const { return controls_; }
    static QString pointPrompt(); // the readout's words with no cell under the mouse

    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return map_; }
    bool isReady() const { return ready_; } // the map shows the current buffer and slice
    static constexpr int maxCells = 1024;
    // Planes up to this many elements are averaged at once, larger ones on a worker.
    static constexpr std::size_t syncCells = std::size_t(1) << 18;

signals:
    void updated();
    // The readout's words for the element under the mouse, empty when none is.
    void pointedAt(const QString& element);

private:
    void fill();
    void showCells(const HeatMapCells& cells, quint64 generation);
    void showValueUnder(const QPoint& pixel);

    QCustomPlot* plot_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
    QSpinBox* slice_;
    QLabel* sliceLabel_;
    QLabel* readout_;
    QCheckBox* squareCells_;
    QWidget* controls_;
    std::shared_ptr<const HostBuffer> buffer_;
    std::vector<std::size_t> shape_;
    quint64 generation_ = 0;   // which fill a finished average belongs to
    bool rescaleAxes_ = false; // a new buffer: fit the axes once its cells arrive
    bool ready_ = true;
};

} // namespace kw
