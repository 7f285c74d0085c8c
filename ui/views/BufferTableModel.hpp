#pragma once
// A table over a HostBuffer that reads elements on demand, never copying them, one
// page of rows at a time so views stay fast whatever the size. A 2-D shape shows rows
// x columns (a 3-D shape stacks its slices' rows); 1-D is one column.
#include <QAbstractTableModel>

#include <cstddef>
#include <memory>
#include <vector>

namespace kw {

class HostBuffer;

class BufferTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit BufferTableModel(QObject* parent = nullptr);

    void setBuffer(std::shared_ptr<const HostBuffer> buffer, std::vector<std::size_t> shape);
    const HostBuffer* buffer() const { return buffer_.get(); }

    void setPageRows(std::size_t rows); // default 100000
    std::size_t pageRows() const { return pageRows_; }
    void setPage(std::size_t page);
    std::size_t page() const { return page_; }
    std::size_t pageCount() const;
    std::size_t totalRows() const { return rows_; }
    std::size_t totalColumns() const { return cols_; }

    // Where flat element `index` is shown: its page and the row/column within it.
    struct Location {
        std::size_t page;
        int row, column;
    };
    Location locate(std::size_t index) const;
    std::size_t elementIndex(const QModelIndex& index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const HostBuffer> buffer_;
    std::vector<std::size_t> shape_;
    std::size_t rows_ = 0, cols_ = 1;
    std::size_t pageRows_ = 100000;
    std::size_t page_ = 0;
};

} // namespace kw
