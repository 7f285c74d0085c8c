#pragma once
// The launch grid as cells, one per block, coloured by how many printf lines the block
// printed; x runs right and y down. A 3-D grid shows one z slice at a time. A 1-D grid
// wraps into rows so large grids stay readable. Clicking a block selects it.
#include "launch/RunResult.hpp"

#include <QWidget>

#include <optional>
#include <unordered_map>
#include <vector>

namespace kw {

class BlockGridView : public QWidget {
    Q_OBJECT
public:
    explicit BlockGridView(QWidget* parent = nullptr);

    void setOutput(const std::vector<PrintfLine>& lines, Dim3 grid);
    Dim3 grid() const { return grid_; }

    void setSlice(int z);
    int slice() const { return slice_; }

    int lineCount(const Dim3& block) const;
    int maxLineCount() const { return max_; }
    std::optional<Dim3> blockAt(const QPoint& pos) const;
    QRect cellRect(const Dim3& block) const; // in widget coordinates
    std::optional<Dim3> selectedBlock() const { return selected_; }
    void selectBlock(const Dim3& block);

    static QColor colourFor(int count, int max);
    QSize sizeHint() const override;
    // Blocks per row when a 1-D grid wraps; 0 when the grid does not wrap.
    int wrapColumns() const { return wraps() ? cols_ : 0; }

signals:
    void blockClicked(const kw::Dim3& block);
    void layoutChanged(); // cell size or blocks per row changed

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;

private:
    std::uint64_t key(const Dim3& b) const
    {
        return b.x + std::uint64_t(grid_.x) * (b.y + std::uint64_t(grid_.y) * b.z);
    }
    bool wraps() const { return grid_.y == 1 && grid_.z == 1; }
    void relayout();

    Dim3 grid_;
    int slice_ = 0;
    std::unordered_map<std::uint64_t, int> counts_;
    int max_ = 0;
    std::optional<Dim3> selected_;
    // Layout: cells of cell_ pixels in cols_ columns and rows_ rows.
    int cell_ = 16, cols_ = 1, rows_ = 1;
    static constexpr int margin_ = 4, minCell_ = 6, maxCell_ = 64;
};

} // namespace kw
