#pragma once
// A read-only table whose rows are as tall as its font needs and no taller, also after
// the font grows (presentation mode): the debugger's docks show 32 lanes or rows of
// shared memory in little height.
#include <QTableWidget>

namespace kw {

class CompactTable : public QTableWidget {
    Q_OBJECT
public:
    CompactTable(int rows, int columns, QWidget* parent = nullptr);
    // The width a column's cells need, its header left out.
    int cellsWidth(int column) const { return sizeHintForColumn(column); }

protected:
    void changeEvent(QEvent* e) override;

private:
    void fitRows();
};

} // namespace kw
