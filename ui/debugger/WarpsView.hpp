#pragma once
// The focused block's warps at a stop (the session's `info warps`): each warp's lanes
// as a row of coloured cells, and where it is: its line, waiting at a barrier, or done.
// Double-clicking a warp focuses it.
#include "debugger/DebugReply.hpp"

#include <QWidget>

class QTableWidget;

namespace kw {

class WarpsView : public QWidget {
    Q_OBJECT
public:
    explicit WarpsView(QWidget* parent = nullptr);
    void show(const DebugReply& reply);
    using QWidget::show;
    QTableWidget* table() const { return table_; }

signals:
    void warpChosen(int warp);

private:
    QTableWidget* table_;
};

} // namespace kw
