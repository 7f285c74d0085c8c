#pragma once
// A BufferTableModel in a table with page navigation and a jump-to-index field.
#include <QWidget>

#include <cstddef>
#include <memory>
#include <vector>

class QTableView;
class QSpinBox;
class QLabel;
class QLineEdit;

namespace kw {

class HostBuffer;
class BufferTableModel;

class BufferTableView : public QWidget {
    Q_OBJECT
public:
    explicit BufferTableView(QWidget* parent = nullptr);

    void setBuffer(std::shared_ptr<const HostBuffer> buffer, std::vector<std::size_t> shape);
    BufferTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }

public slots:
    void showElement(std::size_t index); // switches page, selects and scrolls to it

private:
    void updatePageControls();

    BufferTableModel* model_;
    QTableView* table_;
    QSpinBox* page_;
    QLabel* pages_;
    QLineEdit* jump_;
};

} // namespace kw
