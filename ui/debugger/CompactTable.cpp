#include "debugger/CompactTable.hpp"

#include <QEvent>
#include <QHeaderView>

namespace kw {

CompactTable::CompactTable(int rows, int columns, QWidget* parent)
    : QTableWidget(rows, columns, parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    verticalHeader()->setMinimumSectionSize(1);
    fitRows();
}

void CompactTable::changeEvent(QEvent* e)
{
    QTableWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        fitRows();
        resizeColumnsToContents();
    }
}

void CompactTable::fitRows() { verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6); }

} // namespace kw
