#include "debugger/LanesView.hpp"

#include "debugger/CompactTable.hpp"

#include <QHeaderView>

#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace kw {

namespace {
constexpr int kFixedColumns = 3; // lane, state, thread
}

QColor LanesView::stateColour(const QString& state)
{
    if (state == "active")
        return QColor("#c8e6c9");
    if (state == "diverged")
        return QColor("#ffe0b2");
    if (state == "barrier")
        return QColor("#bbdefb");
    if (state == "exited")
        return QColor("#e0e0e0");
    return {};
}

LanesView::LanesView(QWidget* parent)
    : QWidget(parent)
{
    field_ = new QLineEdit;
    field_->setPlaceholderText(tr("Add a column: %f4, threadIdx.x, in(i)…"));
    field_->setToolTip(tr("An expression evaluated for every lane (docs/debugger.md, \"Expressions\"); "
                          "right-click a column's header to remove it"));
    connect(field_, &QLineEdit::returnPressed, this, [this] {
        addExpression(field_->text());
        field_->clear();
    });
    table_ = new CompactTable(32, kFixedColumns);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setTextElideMode(Qt::ElideRight);
    table_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint& p) {
        const int column = table_->horizontalHeader()->logicalIndexAt(p);
        if (column < kFixedColumns)
            return;
        QMenu menu(this);
        QAction* remove = menu.addAction(tr("Remove %1").arg(expressions_.value(column - kFixedColumns)));
        if (menu.exec(table_->horizontalHeader()->mapToGlobal(p)) == remove)
            removeExpression(column - kFixedColumns);
    });
    for (int l = 0; l < 32; ++l) {
        auto* item = new QTableWidgetItem(QString::number(l));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(l, 0, item);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(field_);
    layout->addWidget(table_);
    rebuildColumns();
}

void LanesView::addExpression(const QString& expression)
{
    const QString e = expression.trimmed();
    if (e.isEmpty() || expressions_.contains(e))
        return;
    expressions_ << e;
    rebuildColumns();
    emit expressionsChanged();
}

void LanesView::removeExpression(int index)
{
    if (index < 0 || index >= expressions_.size())
        return;
    expressions_.removeAt(index);
    rebuildColumns();
    emit expressionsChanged();
}

void LanesView::rebuildColumns()
{
    table_->setColumnCount(kFixedColumns + int(expressions_.size()));
    QStringList headers = {tr("Lane"), tr("State"), tr("Thread")};
    headers << expressions_;
    table_->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < expressions_.size(); ++c)
        table_->horizontalHeaderItem(kFixedColumns + c)->setToolTip(expressions_[c]);
    fitColumns();
}

// Once per answer (a column sized to its contents at every cell costs seconds). The
// expressions' headers are shown whole where the dock is wide enough, else elided (the
// tooltip has them) so that the values fit.
void LanesView::fitColumns()
{
    int fixed = 0, whole = 0;
    std::vector<int> cellWidths, wholeWidths;
    for (int c = 0; c < table_->columnCount(); ++c) {
        if (c < kFixedColumns) {
            table_->resizeColumnToContents(c);
            fixed += table_->columnWidth(c);
            continue;
        }
        const int w = std::max(table_->cellsWidth(c), fontMetrics().averageCharWidth() * 6) + 8;
        cellWidths.push_back(w);
        wholeWidths.push_back(std::max(w, table_->horizontalHeader()->sectionSizeHint(c)));
        whole += wholeWidths.back();
    }
    // Short of room, each header gives up its share of what the headers want beyond the values.
    const int room = table_->viewport()->width() - fixed;
    int cells = 0;
    for (int w : cellWidths)
        cells += w;
    for (std::size_t i = 0; i < cellWidths.size(); ++i) {
        int w = wholeWidths[i];
        if (whole > room && whole > cells)
            w = cellWidths[i]
                + int(double(std::max(0, room - cells)) * (wholeWidths[i] - cellWidths[i]) / (whole - cells));
        table_->setColumnWidth(kFixedColumns + int(i), w);
    }
}

void LanesView::show(const DebugReply& reply)
{
    fill(reply);
    fitColumns();
}

void LanesView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fitColumns();
}

void LanesView::fill(const DebugReply& reply)
{
    if (!reply.warp) { // every block has run: no lane to show, and no value that could be taken for one
        for (int l = 0; l < 32; ++l)
            for (int c = 1; c < table_->columnCount(); ++c)
                table_->setItem(l, c, new QTableWidgetItem(c == 1 ? tr("finished") : QString()));
        return;
    }
    const DebugWarp& w = *reply.warp;
    for (int l = 0; l < 32; ++l) {
        const QString state = w.laneState(l);
        auto* s = new QTableWidgetItem(state.isEmpty() ? tr("no thread") : state);
        if (const QColor c = stateColour(state); c.isValid()) {
            s->setBackground(c);
            s->setForeground(QColor("#202020"));
        }
        table_->setItem(l, 1, s);
        auto* t = new QTableWidgetItem(state.isEmpty() ? QString() : QString::number(w.warp * 32 + l));
        t->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(l, 2, t);
    }
    if (!reply.lanes)
        return;
    // The answer's own columns, matched by expression: the user may have changed the list since.
    for (int c = 0; c < expressions_.size(); ++c) {
        const auto at = reply.lanes->expressions.indexOf(expressions_[c]);
        for (int l = 0; l < 32; ++l) {
            auto* v = new QTableWidgetItem(at < 0 ? QString() : reply.lanes->texts[std::size_t(at)][std::size_t(l)]);
            v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(l, kFixedColumns + c, v);
        }
    }
}

} // namespace kw
