#include "LaunchShapeView.hpp"

#include "ThemeColours.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <unordered_set>

namespace kw {

namespace {
constexpr std::uint64_t maxCells = 1024; // beyond this only the first cells are drawn

bool same(Dim3 a, Dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
QString str(Dim3 d) { return QString("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z); }
} // namespace

LaunchShapeView::LaunchShapeView(QWidget* parent)
    : QWidget(parent)
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

QRect LaunchShapeView::threadRect(Dim3 thread)
{
    if (!valid_)
        return {};
    computeLayouts();
    return cellRect(blockLayout_, block_, thread);
}

QRect LaunchShapeView::cellRect(const Layout& l, Dim3 shape, Dim3 c)
{
    const std::uint64_t linear = c.x + std::uint64_t(c.y) * shape.x + std::uint64_t(c.z) * shape.x * shape.y;
    if (linear >= l.shown || l.cell <= 0)
        return {};
    if (l.oneD) {
        const int col = int(linear % l.cols), row = int(linear / l.cols);
        return QRect(l.area.left() + col * l.cell, l.area.top() + row * l.cell, l.cell - 1, l.cell - 1);
    }
    if (c.x >= std::uint32_t(l.cols) || c.y >= std::uint32_t(l.rows) || c.z >= std::uint32_t(l.layers))
        return {};
    const QRect label = layerLabelRect(l, int(c.z));
    const int x0 = label.left(), y0 = label.bottom() + 1;
    return QRect(x0 + int(c.x) * l.cell, y0 + int(c.y) * l.cell, l.cell - 1, l.cell - 1);
}

QRect LaunchShapeView::layerLabelRect(const Layout& l, int z)
{
    const int tileW = l.cols * l.cell, tileH = l.rows * l.cell;
    const int col = z % l.perRow, row = z / l.perRow;
    return QRect(l.area.left() + col * (tileW + l.gap), l.area.top() + row * (l.label + tileH + l.gap),
                 std::max(tileW, 1), l.label);
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
    l.oneD = shape.y == 1 && shape.z == 1;
    if (l.oneD) {
        l.cols = std::max(1, int(std::min<std::uint64_t>(shape.x, wrap)));
        l.rows = std::max(1, int((l.shown + l.cols - 1) / l.cols));
        l.cell = std::clamp(std::min(area.width() / l.cols, area.height() / l.rows), 2, 28);
        return l;
    }
    const std::uint64_t plane = std::uint64_t(shape.x) * shape.y;
    l.cols = std::max(1, int(std::min<std::uint64_t>(shape.x, 64)));
    l.rows = std::max(1, int(std::min<std::uint64_t>(shape.y, (l.shown + shape.x - 1) / shape.x)));
    l.layers = std::max(1, int(std::min<std::uint64_t>(shape.z, (l.shown + plane - 1) / plane)));
    l.label = shape.z > 1 ? fontMetrics().height() : 0;
    l.gap = shape.z > 1 ? std::max(6, fontMetrics().height() / 2) : 0;
    // The number of layers per row that gives the largest cells.
    int best = 0;
    for (int perRow = 1; perRow <= l.layers; ++perRow) {
        const int tileRows = (l.layers + perRow - 1) / perRow;
        const int byWidth = (area.width() - (perRow - 1) * l.gap) / (perRow * l.cols);
        const int byHeight = (area.height() - tileRows * (l.label + l.gap)) / (tileRows * l.rows);
        const int cell = std::min(byWidth, byHeight);
        if (cell > best) {
            best = cell;
            l.perRow = perRow;
        }
    }
    l.cell = std::clamp(best, 2, 28);
    return l;
}

std::optional<Dim3> LaunchShapeView::hit(const Layout& l, Dim3 shape, QPoint p) const
{
    if (!l.area.contains(p) || l.cell <= 0)
        return std::nullopt;
    // At most maxCells cells: asking each is simple and exact for every layout.
    for (std::uint64_t i = 0; i < l.shown; ++i) {
        const Dim3 c = coordOf(i, shape);
        if (cellRect(l, shape, c).adjusted(0, 0, 1, 1).contains(p))
            return c;
    }
    return std::nullopt;
}

int LaunchShapeView::headerHeight() const { return 3 * fontMetrics().height() + 8; }

void LaunchShapeView::computeLayouts()
{
    const int half = width() / 2;
    const int top = headerHeight();
    const QRect gridArea(8, top, half - 16, height() - top - 6);
    const QRect blockArea(half + 8, top, width() - half - 16, height() - top - 6);
    gridLayout_ = layoutFor(gridArea, grid_, 32);
    blockLayout_ = layoutFor(blockArea, block_, warp_);
}

QColor LaunchShapeView::warpColour(std::uint64_t warp) { return warp % 2 ? QColor(70, 130, 200) : QColor(118, 185, 0); }

void LaunchShapeView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!valid_) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("Launch shape appears when grid and block are valid"));
        return;
    }
    computeLayouts();
    const int lineH = fontMetrics().height();
    const std::uint64_t threads = grid_.volume() * block_.volume();
    const std::uint64_t warpsPerBlock = (block_.volume() + warp_ - 1) / warp_;
    p.setPen(palette().color(QPalette::Text));
    QFont f = font();
    f.setBold(true);
    p.setFont(f);
    p.drawText(QRect(8, 2, width() - 16, lineH), Qt::AlignLeft,
               tr("%L1 blocks × %L2 threads = %L3 threads, %L4 warps")
                   .arg(grid_.volume())
                   .arg(block_.volume())
                   .arg(threads)
                   .arg(grid_.volume() * warpsPerBlock));
    p.setFont(font());
    p.drawText(QRect(8, 2 + lineH, width() - 16, lineH), Qt::AlignLeft,
               tr("grid %1×%2×%3   block %4×%5×%6")
                   .arg(grid_.x)
                   .arg(grid_.y)
                   .arg(grid_.z)
                   .arg(block_.x)
                   .arg(block_.y)
                   .arg(block_.z));

    const QColor selectedFill = palette().color(QPalette::Highlight);
    const QColor gridFill = selectedFill.lighter(ThemeColours::isDark(palette()) ? 60 : 160);
    auto drawPanel = [&](const Layout& l, Dim3 shape, const QString& title, bool isGrid) {
        p.setPen(palette().color(QPalette::Text));
        QString t = title;
        if (l.shown < l.total)
            t += tr(" (first %L1 of %L2)").arg(l.shown).arg(l.total);
        p.drawText(QRect(l.area.left(), 4 + 2 * lineH, l.area.width(), lineH), Qt::AlignLeft, t);
        if (!l.oneD && shape.z > 1)
            for (int z = 0; z < l.layers; ++z)
                p.drawText(layerLabelRect(l, z), Qt::AlignLeft | Qt::AlignVCenter, tr("z = %1").arg(z));
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
                fill = same(c, selected_) ? selectedFill : gridFill;
            } else {
                fill = warpColour(i / warp_);
                if (printed.count(i))
                    fill = fill.darker(150);
            }
            if (hover_ && !isGrid && same(*hover_, c))
                fill = QColor(240, 173, 30);
            p.fillRect(cell, fill);
        }
    };
    drawPanel(gridLayout_, grid_, tr("Grid of blocks (click one)"), true);
    drawPanel(blockLayout_, block_, tr("Threads of block %1; warps alternate green and blue").arg(str(selected_)),
              false);
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
    const auto t = hit(blockLayout_, block_, e->position().toPoint());
    const bool changed = t.has_value() != hover_.has_value() || (t && hover_ && !same(*t, *hover_));
    hover_ = t;
    if (t)
        QToolTip::showText(e->globalPosition().toPoint(), describeThread(*t), this);
    else if (auto b = hit(gridLayout_, grid_, e->position().toPoint()))
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
    if (auto b = hit(gridLayout_, grid_, e->position().toPoint()))
        selectBlock(*b);
}

void LaunchShapeView::leaveEvent(QEvent*)
{
    hover_.reset();
    update();
}

} // namespace kw
