#pragma once
// Draws the launch shape: the grid of blocks and one block's threads, with
// totals. Hovering a thread tells its blockIdx, threadIdx, global index and
// what it printed (tagged printf); clicking a block shows its threads.
#include "launch/LaunchTypes.hpp"
#include "launch/RunResult.hpp"

#include <QColor>
#include <QWidget>

namespace kw {

class LaunchShapeView : public QWidget {
    Q_OBJECT
public:
    explicit LaunchShapeView(QWidget* parent = nullptr);

    void setShape(Dim3 grid, Dim3 block, int warpSize = 32);
    void setPrintf(const PrintfOutput& output);
    void clearShape();
    Dim3 selectedBlock() const { return selected_; }
    // Shows that block's threads and marks it in the grid; a block outside the
    // grid (a printf view of an older launch) is ignored.
    void selectBlock(Dim3 block);
    // Where the block's cell is drawn; empty when it is not drawn (past the cell limit).
    QRect blockRect(Dim3 block);
    // Where a thread of the selected block is drawn; empty when it is not drawn.
    QRect threadRect(Dim3 thread);

    // The text hovering the given thread of the selected block shows.
    QString describeThread(Dim3 thread) const;
    // The fill of a thread cell: warps alternate between two clearly different colours.
    static QColor warpColour(std::uint64_t warp);
    QSize sizeHint() const override { return {360, 220}; }
    QSize minimumSizeHint() const override { return {200, 140}; }

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent*) override;

private:
    // One panel (grid or block) laid out as cells. 1-D shapes wrap every `wrap`
    // cells; 2-D shapes draw x across and y down; 3-D shapes draw each z as a layer
    // of its own (x across, y down), layers side by side and wrapping, each labelled.
    struct Layout {
        QRect area;
        int cols = 0, rows = 0, cell = 0; // of one layer
        int layers = 1, perRow = 1;       // z layers drawn, and how many per row
        int label = 0, gap = 0;           // label height above a layer, space between layers
        bool oneD = false;
        std::uint64_t shown = 0, total = 0;
    };
    Layout layoutFor(const QRect& area, Dim3 shape, int wrap) const;
    std::optional<Dim3> hit(const Layout& l, Dim3 shape, QPoint p) const;
    // The cell drawn for c, or a null rect when c is past what the layout shows.
    static QRect cellRect(const Layout& l, Dim3 shape, Dim3 c);
    // Where layer z's label goes.
    static QRect layerLabelRect(const Layout& l, int z);
    static Dim3 coordOf(std::uint64_t linear, Dim3 shape);
    void computeLayouts();
    int headerHeight() const;

    bool valid_ = false;
    Dim3 grid_, block_, selected_;
    int warp_ = 32;
    std::optional<Dim3> hover_;
    Layout gridLayout_, blockLayout_;
    std::vector<PrintfLine> lines_;
};

} // namespace kw
