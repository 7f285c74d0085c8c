#include "debugger/WarpsView.hpp"

#include "debugger/LanesView.hpp"

#include "debugger/CompactTable.hpp"

#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kw {

namespace {

// 32 characters, lane 0 first, as the console's lane map: # active, d diverged, b at a
// barrier, x exited, . no thread.
QString laneMap(const DebugWarp& w)
{
    QString map;
    for (int l = 0; l < 32; ++l) {
        const QString s = w.laneState(l);
        map += s == "active" ? '#' : s == "diverged" ? 'd' : s == "barrier" ? 'b' : s == "exited" ? 'x' : '.';
    }
    return map;
}

} // namespace

WarpsView::WarpsView(QWidget* parent)
    : QWidget(parent)
{
    table_ = new CompactTable(0, 3);
    table_->setHorizontalHeaderLabels({tr("Warp"), tr("Lanes"), tr("Where")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(tr("# running, d waiting elsewhere (diverged), b at a barrier, x exited; "
                          "double-click a warp to focus it"));
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { emit warpChosen(row); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(table_);
}

void WarpsView::show(const DebugReply& reply)
{
    table_->setRowCount(int(reply.warps.size()));
    QFont mono("monospace");
    mono.setStyleHint(QFont::Monospace);
    for (std::size_t i = 0; i < reply.warps.size(); ++i) {
        const DebugWarp& w = reply.warps[i];
        const bool focused = w.warp == reply.focusWarp;
        auto* id = new QTableWidgetItem((focused ? "▶ " : "") + QString::number(w.warp));
        auto* lanes = new QTableWidgetItem(laneMap(w));
        lanes->setFont(mono);
        QString where;
        QString state;
        if (w.done) {
            where = tr("done");
            state = "exited";
        } else if (w.atBarrier) {
            where = tr("waiting at the barrier at line %1").arg(w.where.line);
            state = "barrier";
        } else {
            where = tr("line %1 (pc %2)").arg(w.where.line).arg(w.where.pc);
            state = "active";
            for (const DebugWarp::Group& g : w.groups)
                if (g.state == "diverged")
                    state = "diverged";
        }
        auto* at = new QTableWidgetItem(where);
        at->setBackground(LanesView::stateColour(state));
        at->setForeground(QColor("#202020"));
        table_->setItem(int(i), 0, id);
        table_->setItem(int(i), 1, lanes);
        table_->setItem(int(i), 2, at);
    }
    table_->resizeColumnsToContents(); // once: a column sized at every cell costs seconds
}

} // namespace kw
