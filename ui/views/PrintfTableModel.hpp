#pragma once
// Tagged printf lines as a table: block, thread, text.
#include "launch/RunResult.hpp"

#include <QAbstractTableModel>

#include <vector>

namespace kw {

class PrintfTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { BlockColumn, ThreadColumn, TextColumn, ColumnCount };
    // Sorting by block or thread orders by (z, y, x), not by the text "(10,0,0)".
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit PrintfTableModel(QObject* parent = nullptr);

    void setLines(std::vector<PrintfLine> lines);
    const PrintfLine& line(int row) const { return lines_[std::size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    static QString format(const Dim3& d);

private:
    std::vector<PrintfLine> lines_;
};

} // namespace kw
