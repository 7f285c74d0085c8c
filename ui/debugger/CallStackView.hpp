#pragma once
// The focused warp's inlined call frames at a stop (the session's `backtrace`),
// innermost first, each with its line; choosing one shows its line in the editor.
#include "debugger/DebugReply.hpp"

#include <QWidget>

class QListWidget;

namespace kw {

class CallStackView : public QWidget {
    Q_OBJECT
public:
    explicit CallStackView(QWidget* parent = nullptr);
    void show(const DebugReply& reply);
    using QWidget::show;
    QListWidget* list() const { return list_; }

signals:
    void lineChosen(int line);

private:
    QListWidget* list_;
};

} // namespace kw
