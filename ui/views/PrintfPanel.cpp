#include "views/PrintfPanel.hpp"

#include "views/BlockGridView.hpp"
#include "views/PrintfFilterProxy.hpp"
#include "views/PrintfTableModel.hpp"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace kw {

namespace {
void markValid(QLineEdit* edit, bool valid)
{
    edit->setStyleSheet(valid ? QString() : QStringLiteral("QLineEdit { background: #ffebee; }"));
    edit->setToolTip(valid ? QString() : QObject::tr("Not a filter: use x, x,y or x,y,z with numbers or *"));
}
} // namespace

PrintfPanel::PrintfPanel(QWidget* parent)
    : QWidget(parent)
    , warning_(new QLabel(this))
    , tabs_(new QTabWidget(this))
    , console_(new QPlainTextEdit(this))
    , model_(new PrintfTableModel(this))
    , proxy_(new PrintfFilterProxy(this))
{
    warning_->setWordWrap(true);
    warning_->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #664d03; border: 1px solid #ffcd39; padding: 6px; }"));
    warning_->setText(tr("\u26A0 The printf output was cut off: the device printf buffer filled up "
                         "before the kernel finished. Increase the printf buffer size in the "
                         "launch settings, or print less."));
    warning_->hide();

    console_->setReadOnly(true);
    console_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    console_->setLineWrapMode(QPlainTextEdit::NoWrap);
    console_->setPlaceholderText(tr("No printf output."));

    proxy_->setSourceModel(model_);
    tabs_->addTab(console_, tr("Console"));
    tabs_->addTab(buildTableTab(), tr("Table"));
    tabs_->addTab(buildBlocksTab(), tr("Blocks"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(warning_);
    layout->addWidget(tabs_, 1);
}

QWidget* PrintfPanel::buildTableTab()
{
    auto* page = new QWidget(this);
    blockFilter_ = new QLineEdit(page);
    threadFilter_ = new QLineEdit(page);
    textFilter_ = new QLineEdit(page);
    tableCount_ = new QLabel(page);
    blockFilter_->setPlaceholderText(tr("block: x,y,z"));
    threadFilter_->setPlaceholderText(tr("thread: x,y,z"));
    textFilter_->setPlaceholderText(tr("text contains..."));
    for (QLineEdit* e : {blockFilter_, threadFilter_, textFilter_})
        e->setClearButtonEnabled(true);

    table_ = new QTableView(page);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder); // output order until the user sorts
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(PrintfTableModel::BlockColumn, 120);
    table_->setColumnWidth(PrintfTableModel::ThreadColumn, 120);

    auto* filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Filter:"), page));
    filters->addWidget(blockFilter_);
    filters->addWidget(threadFilter_);
    filters->addWidget(textFilter_, 2);
    filters->addWidget(tableCount_);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addWidget(table_, 1);

    const auto updateCount
        = [this] { tableCount_->setText(tr("%1 of %2 lines").arg(proxy_->rowCount()).arg(model_->rowCount())); };
    connect(blockFilter_, &QLineEdit::textChanged, this, [this, updateCount](const QString& t) {
        markValid(blockFilter_, proxy_->setBlockFilter(t));
        updateCount();
    });
    connect(threadFilter_, &QLineEdit::textChanged, this, [this, updateCount](const QString& t) {
        markValid(threadFilter_, proxy_->setThreadFilter(t));
        updateCount();
    });
    connect(textFilter_, &QLineEdit::textChanged, this, [this, updateCount](const QString& t) {
        proxy_->setTextFilter(t);
        updateCount();
    });
    connect(model_, &QAbstractItemModel::modelReset, this, updateCount);
    return page;
}

QWidget* PrintfPanel::buildBlocksTab()
{
    auto* page = new QWidget(this);
    grid_ = new BlockGridView(page);
    slice_ = new QSpinBox(page);
    sliceLabel_ = new QLabel(tr("z slice:"), page);
    legend_ = new QLabel(page);
    blockTitle_ = new QLabel(tr("Click a block to see its lines."), page);
    blockLines_ = new QTreeWidget(page);
    blockLines_->setColumnCount(2);
    blockLines_->setHeaderLabels({tr("Thread"), tr("Text")});
    blockLines_->setRootIsDecorated(false);
    blockLines_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    blockLines_->setUniformRowHeights(true);
    blockLines_->setColumnWidth(0, 110);

    auto* scroll = new QScrollArea(page);
    scroll->setWidget(grid_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* gridSide = new QWidget(page);
    auto* top = new QHBoxLayout;
    top->addWidget(sliceLabel_);
    top->addWidget(slice_);
    top->addWidget(legend_, 1);
    auto* gridLayout = new QVBoxLayout(gridSide);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    gridLayout->addLayout(top);
    gridLayout->addWidget(scroll, 1);

    auto* linesSide = new QWidget(page);
    auto* linesLayout = new QVBoxLayout(linesSide);
    linesLayout->setContentsMargins(0, 0, 0, 0);
    linesLayout->addWidget(blockTitle_);
    linesLayout->addWidget(blockLines_, 1);

    auto* split = new QSplitter(Qt::Horizontal, page);
    split->addWidget(gridSide);
    split->addWidget(linesSide);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(slice_, qOverload<int>(&QSpinBox::valueChanged), grid_, &BlockGridView::setSlice);
    connect(grid_, &BlockGridView::blockClicked, this, &PrintfPanel::showBlock);
    connect(grid_, &BlockGridView::layoutChanged, this, &PrintfPanel::updateLegend);
    return page;
}

void PrintfPanel::showOutput(const PrintfOutput& output, Dim3 grid, Dim3 block)
{
    lines_ = output.lines;
    launchBlock_ = block;
    warning_->setVisible(output.truncated);

    QString raw = QString::fromStdString(output.raw);
    if (raw.endsWith('\n'))
        raw.chop(1);
    console_->setPlainText(raw);

    model_->setLines(output.lines);
    grid_->setOutput(output.lines, grid);
    const QSignalBlocker blockSlice(slice_);
    slice_->setRange(0, int(std::max(1u, grid.z)) - 1);
    slice_->setValue(0);
    slice_->setVisible(grid.z > 1);
    sliceLabel_->setVisible(grid.z > 1);
    updateLegend();
    blockLines_->clear();
    blockTitle_->setText(tr("Click a block to see its lines."));

    const int lineCount = raw.isEmpty() ? 0 : int(raw.count('\n')) + 1;
    tabs_->setTabText(0, tr("Console (%1)").arg(lineCount));
    tabs_->setTabText(1, tr("Table (%1)").arg(output.lines.size()));
    // Untagged output has no block to show: the console is the only useful view.
    tabs_->setTabEnabled(1, !output.lines.empty());
    tabs_->setTabEnabled(2, !output.lines.empty());
    if (output.lines.empty())
        tabs_->setCurrentIndex(0);
}

void PrintfPanel::updateLegend()
{
    const Dim3 g = grid_->grid();
    QString text = tr("Grid %1 x %2 x %3 blocks of %4 x %5 x %6 threads. Colour: lines per block "
                      "(most: %7). x runs right, y down.")
                       .arg(g.x)
                       .arg(g.y)
                       .arg(g.z)
                       .arg(launchBlock_.x)
                       .arg(launchBlock_.y)
                       .arg(launchBlock_.z)
                       .arg(grid_->maxLineCount());
    if (grid_->wrapColumns() > 0 && grid_->wrapColumns() < int(g.x))
        text = tr("Grid of %1 blocks (1-D) of %2 threads, wrapped %3 blocks per row: row r starts at "
                  "blockIdx.x = %3 r. Colour: lines per block (most: %4).")
                   .arg(g.x)
                   .arg(launchBlock_.volume())
                   .arg(grid_->wrapColumns())
                   .arg(grid_->maxLineCount());
    legend_->setText(text);
}

void PrintfPanel::clear() { showOutput(PrintfOutput{}, Dim3{}, Dim3{}); }

void PrintfPanel::showBlock(const Dim3& b)
{
    if (!grid_->selectedBlock() || grid_->selectedBlock()->x != b.x || grid_->selectedBlock()->y != b.y
        || grid_->selectedBlock()->z != b.z) {
        grid_->selectBlock(b);
        slice_->setValue(int(b.z));
    }
    blockLines_->clear();
    QList<QTreeWidgetItem*> items;
    for (const PrintfLine& l : lines_) {
        if (l.block.x != b.x || l.block.y != b.y || l.block.z != b.z)
            continue;
        auto* it = new QTreeWidgetItem({PrintfTableModel::format(l.thread), QString::fromStdString(l.text)});
        items.push_back(it);
    }
    blockLines_->addTopLevelItems(items);
    blockTitle_->setText(tr("Block (%1, %2, %3): %4 lines from %5 threads per block")
                             .arg(b.x)
                             .arg(b.y)
                             .arg(b.z)
                             .arg(items.size())
                             .arg(launchBlock_.volume()));
    emit blockSelected(b);
}

} // namespace kw
