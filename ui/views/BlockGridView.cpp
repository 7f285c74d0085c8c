#include "views/BlockGridView.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace kw {

BlockGridView::BlockGridView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setCursor(Qt::PointingHandCursor);
}

void BlockGridView::setOutput(const std::vector<PrintfLine>& lines, Dim3 grid)
{
    grid_ = Dim3{std::max(1u, grid.x), std::max(1u, grid.y), std::max(1u, grid.z)};
    counts_.clear();
    max_ = 0;
    for (const PrintfLine& l : lines) {
        if (l.block.x >= grid_.x || l.block.y >= grid_.y || l.block.z >= grid_.z)
            continue; // a tag outside the launch: shown in the table, not here
        max_ = std::max(max_, ++counts_[key(l.block)]);
    }
    slice_ = 0;
    selected_.reset();
    relayout();
    update();
}

void BlockGridView::setSlice(int z)
{
    z = std::clamp(z, 0, int(grid_.z) - 1);
    if (z == slice_)
        return;
    slice_ = z;
    update();
}

int BlockGridView::lineCount(const Dim3& block) const
{
    const auto it = counts_.find(key(block));
    return it == counts_.end() ? 0 : it->second;
}

QColor BlockGridView::colourFor(int count, int max)
{
    if (count <= 0)
        return QColor(236, 239, 241);
    // Light to dark blue; the square root keeps a few busy blocks from washing out the rest.
    const double t = max > 1 ? std::sqrt(double(count - 1) / double(max - 1)) : 1.0;
    const QColor lo(187, 222, 251), hi(13, 71, 161);
    return QColor(int(lo.red() + t * (hi.red() - lo.red())), int(lo.green() + t * (hi.green() - lo.green())),
                  int(lo.blue() + t * (hi.blue() - lo.blue())));
}

void BlockGridView::relayout()
{
    const int oldCols = cols_, oldCell = cell_;
    const int w = std::max(1, width() - 2 * margin_);
    const int h = std::max(1, height() - 2 * margin_);
    if (!wraps()) {
        cols_ = int(grid_.x);
        rows_ = int(grid_.y);
        cell_ = std::clamp(std::min(w / cols_, h / rows_), minCell_, maxCell_);
    } else {
        // The largest cell at which the wrapped grid still fits the height.
        const std::uint64_t n = grid_.x;
        cell_ = minCell_;
        for (int c = maxCell_; c >= minCell_; --c) {
            const std::uint64_t perRow = std::max(1, w / c);
            if (((n + perRow - 1) / perRow) * std::uint64_t(c) <= std::uint64_t(h)) {
                cell_ = c;
                break;
            }
        }
        cols_ = int(std::min<std::uint64_t>(n, std::uint64_t(std::max(1, w / cell_))));
        rows_ = int(std::min<std::uint64_t>((n + std::uint64_t(cols_) - 1) / std::uint64_t(cols_),
                                            16000000u / std::uint64_t(cell_)));
    }
    // The minimum is what the smallest cells need, so the view can still shrink; past
    // it the surrounding scroll area scrolls.
    const std::uint64_t minRows = wraps()
        ? (grid_.x + std::uint64_t(std::max(1, w / minCell_)) - 1) / std::uint64_t(std::max(1, w / minCell_))
        : grid_.y;
    const std::uint64_t minCols = wraps() ? 1 : grid_.x;
    setMinimumSize(int(std::min<std::uint64_t>(minCols * minCell_, 16000000)) + 2 * margin_,
                   int(std::min<std::uint64_t>(minRows * minCell_, 16000000)) + 2 * margin_);
    if (cols_ != oldCols || cell_ != oldCell)
        emit layoutChanged();
}

QSize BlockGridView::sizeHint() const { return {400, 300}; }

QRect BlockGridView::cellRect(const Dim3& b) const
{
    int col = int(b.x), row = int(b.y);
    if (wraps()) {
        col = int(b.x % std::uint32_t(cols_));
        row = int(b.x / std::uint32_t(cols_));
    }
    return QRect(margin_ + col * cell_, margin_ + row * cell_, cell_, cell_);
}

std::optional<Dim3> BlockGridView::blockAt(const QPoint& pos) const
{
    if (pos.x() < margin_ || pos.y() < margin_)
        return std::nullopt;
    const int col = (pos.x() - margin_) / cell_, row = (pos.y() - margin_) / cell_;
    if (col >= cols_ || row >= rows_)
        return std::nullopt;
    Dim3 b{std::uint32_t(col), std::uint32_t(row), std::uint32_t(slice_)};
    if (wraps()) {
        const std::uint64_t x = std::uint64_t(row) * std::uint64_t(cols_) + std::uint64_t(col);
        if (x >= grid_.x)
            return std::nullopt;
        b = Dim3{std::uint32_t(x), 0, 0};
    }
    return b;
}

void BlockGridView::selectBlock(const Dim3& block)
{
    selected_ = block;
    if (block.z != std::uint32_t(slice_))
        setSlice(int(block.z));
    update();
}

void BlockGridView::paintEvent(QPaintEvent* e)
{
    QPainter p(this);
    p.fillRect(e->rect(), palette().base());
    const QRect r = e->rect();
    const int c0 = std::max(0, (r.left() - margin_) / cell_);
    const int c1 = std::min(cols_ - 1, (r.right() - margin_) / cell_);
    const int r0 = std::max(0, (r.top() - margin_) / cell_);
    const int r1 = std::min(rows_ - 1, (r.bottom() - margin_) / cell_);
    const bool gap = cell_ >= 8;
    const bool numbers = cell_ >= 26;
    QFont small = font();
    small.setPointSizeF(std::max(6.0, cell_ * 0.3));
    p.setFont(small);
    for (int row = r0; row <= r1; ++row) {
        for (int col = c0; col <= c1; ++col) {
            Dim3 b{std::uint32_t(col), std::uint32_t(row), std::uint32_t(slice_)};
            if (wraps()) {
                const std::uint64_t x = std::uint64_t(row) * std::uint64_t(cols_) + std::uint64_t(col);
                if (x >= grid_.x)
                    break;
                b = Dim3{std::uint32_t(x), 0, 0};
            }
            const int n = lineCount(b);
            QRect cell(margin_ + col * cell_, margin_ + row * cell_, cell_, cell_);
            if (gap)
                cell.adjust(0, 0, -1, -1);
            const QColor colour = colourFor(n, max_);
            p.fillRect(cell, colour);
            if (numbers && n > 0) {
                p.setPen(colour.lightness() < 140 ? Qt::white : Qt::black);
                p.drawText(cell, Qt::AlignCenter, QString::number(n));
            }
        }
    }
    if (selected_ && int(selected_->z) == slice_) {
        p.setPen(QPen(QColor(255, 111, 0), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(*selected_).adjusted(1, 1, -2, -2));
    }
}

void BlockGridView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(e);
    if (const auto b = blockAt(e->position().toPoint())) {
        selectBlock(*b);
        emit blockClicked(*b);
    }
}

void BlockGridView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    relayout();
}

bool BlockGridView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const auto b = blockAt(help->pos())) {
            QToolTip::showText(help->globalPos(),
                               tr("blockIdx (%1, %2, %3): %4 lines").arg(b->x).arg(b->y).arg(b->z).arg(lineCount(*b)),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

} // namespace kw
