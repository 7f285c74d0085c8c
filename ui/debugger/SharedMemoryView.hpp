#pragma once
// The focused block's shared memory at a stop, as a grid of words of the chosen type
// (f32, i32, u32, f64), eight to a row, each word's background the colour of its bank
// (4-byte banks, 32 of them: words of one colour are served by one bank), from the
// session's `shared` command.
#include "debugger/DebugReply.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;

namespace kw {

class SharedMemoryView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kColumns = 8;

    explicit SharedMemoryView(QWidget* parent = nullptr);

    QString type() const;
    void show(const DebugReply& reply);
    using QWidget::show;

    QComboBox* typeBox() const { return type_; }
    QTableWidget* table() const { return table_; }
    // The word at byte `offset`, as shown; empty when not shown.
    QString textAt(std::uint32_t offset) const;
    static QColor bankColour(std::uint32_t bank);

signals:
    void typeChanged();

private:
    QComboBox* type_;
    QLabel* summary_;
    QTableWidget* table_;
    std::vector<DebugSharedWord> words_;
};

} // namespace kw
