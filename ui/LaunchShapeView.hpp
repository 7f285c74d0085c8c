#pragma once
// Draws the launch shape: the grid of blocks and one block's threads, with
// totals. Hovering a thread tells its blockIdx, threadIdx, global index and
// what it printed (tagged printf); clicking a block shows its threads.
#include "run/LaunchTypes.hpp"
#include "run/RunResult.hpp"

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

    // The text hovering the given thread of the selected block shows.
    QString describeThread(Dim3 thread) const;
    QSize sizeHint() const override { return {360, 220}; }
    QSize minimumSizeHint() const override { return {200, 140}; }

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent*) override;

private:
    // One panel (grid or block) laid out as cells; 1-D shapes wrap every `wrap`.
    struct Layout {
        QRect area;
        int cols = 0, rows = 0, cell = 0;
        std::uint64_t shown = 0, total = 0;
    };
    Layout layoutFor(const QRect& area, Dim3 shape, int wrap) const;
    std::optional<Dim3> hit(const Layout& l, Dim3 shape, int wrap, QPoint p) const;
    // The cell drawn for c, or a null rect when c is past what the layout shows.
    static QRect cellRect(const Layout& l, Dim3 shape, Dim3 c);
    static Dim3 coordOf(std::uint64_t linear, Dim3 shape);
    void computeLayouts();

    bool valid_ = false;
    Dim3 grid_, block_, selected_;
    int warp_ = 32;
    std::optional<Dim3> hover_;
    Layout gridLayout_, blockLayout_;
    std::vector<PrintfLine> lines_;
};

} // namespace kw
