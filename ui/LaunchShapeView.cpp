#include "LaunchShapeView.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <unordered_set>

namespace kw {

namespace {
constexpr std::uint64_t maxCells = 1024; // beyond this only the first cells are drawn
constexpr int header = 34;

bool same(Dim3 a, Dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
QString str(Dim3 d) { return QString("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z); }
} // namespace

LaunchShapeView::LaunchShapeView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LaunchShapeView::setShape(Dim3 grid, Dim3 block, int warpSize)
{
    valid_ = grid.volume() > 0 && block.volume() > 0;
    grid_ = grid;
    block_ = block;
    warp_ = std::max(1, warpSize);
    if (selected_.x >= grid.x || selected_.y >= grid.y || selected_.z >= grid.z)
        selected_ = Dim3{0, 0, 0};
    update();
}

void LaunchShapeView::clearShape()
{
    valid_ = false;
    update();
}

void LaunchShapeView::setPrintf(const PrintfOutput& output)
{
    lines_ = output.lines;
    update();
}

void LaunchShapeView::selectBlock(Dim3 block)
{
    if (valid_ && (block.x >= grid_.x || block.y >= grid_.y || block.z >= grid_.z))
        return;
    selected_ = block;
    update();
}

QRect LaunchShapeView::blockRect(Dim3 block)
{
    if (!valid_)
        return {};
    computeLayouts();
    return cellRect(gridLayout_, grid_, block);
}

QRect LaunchShapeView::cellRect(const Layout& l, Dim3 shape, Dim3 c)
{
    const std::uint64_t linear = c.x + std::uint64_t(c.y) * shape.x + std::uint64_t(c.z) * shape.x * shape.y;
    if (linear >= l.shown)
        return {};
    int col, row;
    if (shape.y == 1 && shape.z == 1) {
        col = int(linear % l.cols);
        row = int(linear / l.cols);
    } else {
        if (c.x >= std::uint32_t(l.cols))
            return {};
        col = int(c.x);
        row = int(c.y + std::uint64_t(c.z) * shape.y);
        if (row >= l.rows)
            return {};
    }
    return QRect(l.area.left() + col * l.cell, l.area.top() + row * l.cell, l.cell - 1, l.cell - 1);
}

Dim3 LaunchShapeView::coordOf(std::uint64_t linear, Dim3 shape)
{
    Dim3 c;
    c.x = std::uint32_t(linear % shape.x);
    c.y = std::uint32_t((linear / shape.x) % shape.y);
    c.z = std::uint32_t(linear / (std::uint64_t(shape.x) * shape.y));
    return c;
}

LaunchShapeView::Layout LaunchShapeView::layoutFor(const QRect& area, Dim3 shape, int wrap) const
{
    Layout l;
    l.area = area;
    l.total = shape.volume();
    l.shown = std::min<std::uint64_t>(l.total, maxCells);
    // 1-D shapes wrap every `wrap` cells (a warp per row for threads); 2-D/3-D
    // shapes draw x across and y (then z) down.
    const bool oneD = shape.y == 1 && shape.z == 1;
    l.cols = int(oneD ? std::min<std::uint64_t>(shape.x, wrap) : std::min<std::uint64_t>(shape.x, 64));
    l.cols = std::max(1, l.cols);
    l.rows = int((l.shown + l.cols - 1) / l.cols);
    if (!oneD)
        l.rows = int(std::min<std::uint64_t>((l.shown + shape.x - 1) / shape.x, std::uint64_t(shape.y) * shape.z));
    l.rows = std::max(1, l.rows);
    l.cell = std::max(2, std::min(area.width() / l.cols, area.height() / l.rows));
    l.cell = std::min(l.cell, 28);
    return l;
}

std::optional<Dim3> LaunchShapeView::hit(const Layout& l, Dim3 shape, int wrap, QPoint p) const
{
    if (!l.area.contains(p) || l.cell <= 0)
        return std::nullopt;
    const int c = (p.x() - l.area.left()) / l.cell;
    const int r = (p.y() - l.area.top()) / l.cell;
    if (c >= l.cols || r >= l.rows)
        return std::nullopt;
    const bool oneD = shape.y == 1 && shape.z == 1;
    const std::uint64_t linear = oneD ? std::uint64_t(r) * l.cols + c : std::uint64_t(r) * shape.x + c;
    if (linear >= l.shown || (!oneD && std::uint32_t(c) >= shape.x))
        return std::nullopt;
    return coordOf(linear, shape);
}

void LaunchShapeView::computeLayouts()
{
    const int half = width() / 2;
    const QRect gridArea(8, header + 18, half - 16, height() - header - 26);
    const QRect blockArea(half + 8, header + 18, width() - half - 16, height() - header - 26);
    gridLayout_ = layoutFor(gridArea, grid_, 32);
    blockLayout_ = layoutFor(blockArea, block_, warp_);
}

void LaunchShapeView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!valid_) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Launch shape appears when grid and block are valid"));
        return;
    }
    computeLayouts();
    const std::uint64_t threads = grid_.volume() * block_.volume();
    const std::uint64_t warpsPerBlock = (block_.volume() + warp_ - 1) / warp_;
    p.setPen(palette().color(QPalette::Text));
    QFont f = font();
    f.setBold(true);
    p.setFont(f);
    p.drawText(QRect(8, 2, width() - 16, 16), Qt::AlignLeft,
               tr("%L1 blocks × %L2 threads = %L3 threads, %L4 warps")
                   .arg(grid_.volume()).arg(block_.volume()).arg(threads).arg(grid_.volume() * warpsPerBlock));
    p.setFont(font());
    p.drawText(QRect(8, 18, width() - 16, 16), Qt::AlignLeft,
               tr("grid %1×%2×%3   block %4×%5×%6").arg(grid_.x).arg(grid_.y).arg(grid_.z)
                   .arg(block_.x).arg(block_.y).arg(block_.z));

    auto drawPanel = [&](const Layout& l, Dim3 shape, int wrap, const QString& title, bool isGrid) {
        p.setPen(palette().color(QPalette::Text));
        QString t = title;
        if (l.shown < l.total)
            t += tr(" (first %L1 of %L2)").arg(l.shown).arg(l.total);
        p.drawText(QRect(l.area.left(), header, l.area.width(), 16), Qt::AlignLeft, t);
        std::unordered_set<std::uint64_t> printed; // linear thread indices of the selected block
        if (!isGrid)
            for (const PrintfLine& line : lines_)
                if (same(line.block, selected_))
                    printed.insert(line.thread.x + std::uint64_t(line.thread.y) * shape.x
                                   + std::uint64_t(line.thread.z) * shape.x * shape.y);
        for (std::uint64_t i = 0; i < l.shown; ++i) {
            const Dim3 c = coordOf(i, shape);
            const QRect cell = cellRect(l, shape, c);
            if (cell.isNull())
                continue;
            QColor fill;
            if (isGrid) {
                fill = same(c, selected_) ? QColor("#2f6db5") : QColor("#9cc0e8");
            } else {
                // Alternate colours per warp so warps are visible.
                const std::uint64_t linear = i;
                fill = (linear / warp_) % 2 ? QColor("#a9d18e") : QColor("#76b900");
                if (printed.count(linear))
                    fill = fill.darker(140);
            }
            if (hover_ && !isGrid && same(*hover_, c))
                fill = QColor("#f0ad1e");
            p.fillRect(cell, fill);
        }
        if (shape.z > 1)
            p.drawText(QRect(l.area.left(), l.area.bottom() - 14, l.area.width(), 14), Qt::AlignLeft,
                       tr("z layers stacked below each other"));
    };
    drawPanel(gridLayout_, grid_, 32, tr("Grid of blocks (click one)"), true);
    drawPanel(blockLayout_, block_, warp_, tr("Threads of block %1, a warp per colour").arg(str(selected_)), false);
}

QString LaunchShapeView::describeThread(Dim3 t) const
{
    const Dim3 b = selected_;
    const std::uint64_t blockLinear = b.x + std::uint64_t(b.y) * grid_.x + std::uint64_t(b.z) * grid_.x * grid_.y;
    const std::uint64_t threadLinear = t.x + std::uint64_t(t.y) * block_.x + std::uint64_t(t.z) * block_.x * block_.y;
    QString s = tr("blockIdx %1\nthreadIdx %2\nglobal x = blockIdx.x*blockDim.x + threadIdx.x = %L3\n"
                   "global linear index %L4, warp %5, lane %6")
                    .arg(str(b), str(t))
                    .arg(std::uint64_t(b.x) * block_.x + t.x)
                    .arg(blockLinear * block_.volume() + threadLinear)
                    .arg(threadLinear / warp_)
                    .arg(threadLinear % warp_);
    for (const PrintfLine& line : lines_)
        if (same(line.block, b) && same(line.thread, t))
            s += "\nprinted: " + QString::fromStdString(line.text);
    return s;
}

void LaunchShapeView::mouseMoveEvent(QMouseEvent* e)
{
    if (!valid_)
        return;
    computeLayouts();
    const auto t = hit(blockLayout_, block_, warp_, e->position().toPoint());
    const bool changed = t.has_value() != hover_.has_value() || (t && hover_ && !same(*t, *hover_));
    hover_ = t;
    if (t)
        QToolTip::showText(e->globalPosition().toPoint(), describeThread(*t), this);
    else if (auto b = hit(gridLayout_, grid_, 32, e->position().toPoint()))
        QToolTip::showText(e->globalPosition().toPoint(), tr("blockIdx %1").arg(str(*b)), this);
    else
        QToolTip::hideText();
    if (changed)
        update();
}

void LaunchShapeView::mousePressEvent(QMouseEvent* e)
{
    if (!valid_)
        return;
    computeLayouts();
    if (auto b = hit(gridLayout_, grid_, 32, e->position().toPoint()))
        selectBlock(*b);
}

void LaunchShapeView::leaveEvent(QEvent*)
{
    hover_.reset();
    update();
}

} // namespace kw
