#include "views/PrintfTableModel.hpp"

namespace kw {

PrintfTableModel::PrintfTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PrintfTableModel::setLines(std::vector<PrintfLine> lines)
{
    beginResetModel();
    lines_ = std::move(lines);
    endResetModel();
}

QString PrintfTableModel::format(const Dim3& d) { return QStringLiteral("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z); }

int PrintfTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(lines_.size()); }

int PrintfTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PrintfTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const PrintfLine& l = lines_[std::size_t(index.row())];
    const auto key = [](const Dim3& d) { return (qulonglong(d.z) << 42) | (qulonglong(d.y) << 21) | qulonglong(d.x); };
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case BlockColumn: return format(l.block);
        case ThreadColumn: return format(l.thread);
        case TextColumn: return QString::fromStdString(l.text);
        }
    } else if (role == SortRole) {
        switch (index.column()) {
        case BlockColumn: return key(l.block);
        case ThreadColumn: return key(l.thread);
        case TextColumn: return QString::fromStdString(l.text);
        }
    }
    return {};
}

QVariant PrintfTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    if (o == Qt::Vertical)
        return section + 1;
    switch (section) {
    case BlockColumn: return tr("Block");
    case ThreadColumn: return tr("Thread");
    case TextColumn: return tr("Text");
    }
    return {};
}

} // namespace kw
