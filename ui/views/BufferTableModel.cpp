#include "views/BufferTableModel.hpp"

#include "data/HostBuffer.hpp"

#include <algorithm>

namespace kw {

BufferTableModel::BufferTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void BufferTableModel::setBuffer(std::shared_ptr<const HostBuffer> buffer, std::vector<std::size_t> shape)
{
    beginResetModel();
    buffer_ = std::move(buffer);
    shape_ = std::move(shape);
    const std::size_t count = buffer_ ? buffer_->count() : 0;
    if (shape_.size() >= 2 && shape_.back() > 0) {
        cols_ = shape_.back();
        rows_ = count / cols_;
    } else {
        cols_ = 1;
        rows_ = count;
    }
    page_ = 0;
    endResetModel();
}

void BufferTableModel::setPageRows(std::size_t rows)
{
    beginResetModel();
    pageRows_ = std::max<std::size_t>(1, rows);
    page_ = 0;
    endResetModel();
}

void BufferTableModel::setPage(std::size_t page)
{
    page = std::min(page, pageCount() ? pageCount() - 1 : 0);
    if (page == page_)
        return;
    beginResetModel();
    page_ = page;
    endResetModel();
}

std::size_t BufferTableModel::pageCount() const { return (rows_ + pageRows_ - 1) / pageRows_; }

BufferTableModel::Location BufferTableModel::locate(std::size_t index) const
{
    const std::size_t row = index / cols_;
    return {row / pageRows_, int(row % pageRows_), int(index % cols_)};
}

std::size_t BufferTableModel::elementIndex(const QModelIndex& index) const
{
    return (page_ * pageRows_ + std::size_t(index.row())) * cols_ + std::size_t(index.column());
}

int BufferTableModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || rows_ == 0)
        return 0;
    const std::size_t first = page_ * pageRows_;
    return int(std::min(pageRows_, rows_ - first));
}

int BufferTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || rows_ == 0 ? 0 : int(cols_);
}

QVariant BufferTableModel::data(const QModelIndex& index, int role) const
{
    if (!buffer_ || !index.isValid())
        return {};
    const std::size_t i = elementIndex(index);
    if (i >= buffer_->count())
        return {};
    switch (role) {
    case Qt::DisplayRole: {
        const double v = buffer_->at(i);
        if (!isFloating(buffer_->dtype()))
            return QString::number(v, 'f', 0);
        return QString::number(v, 'g', buffer_->dtype() == DType::F64 ? 15 : 7);
    }
    case Qt::EditRole: return buffer_->at(i);
    case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: return tr("element %1").arg(i);
    default: return {};
    }
}

QVariant BufferTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    if (o == Qt::Horizontal)
        return cols_ == 1 && shape_.size() < 2 ? QVariant(tr("value")) : QVariant(section);
    const std::size_t row = page_ * pageRows_ + std::size_t(section);
    if (shape_.size() == 3 && shape_[1] > 0) // slices stacked: label rows "z, y"
        return QStringLiteral("%1, %2").arg(row / shape_[1]).arg(row % shape_[1]);
    return QString::number(row);
}

} // namespace kw
