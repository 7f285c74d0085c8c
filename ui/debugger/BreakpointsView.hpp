#pragma once
// The session's breakpoints and watchpoints with their hits; a field adds a watchpoint
// (`watch block_sums(1)`, `watch shared 16 f32`, `rwatch ...`), Remove deletes the
// selected one (a breakpoint through the editor's margin, which owns them).
#include "debugger/DebugReply.hpp"

#include <QWidget>

class QLineEdit;
class QTreeWidget;

namespace kw {

class BreakpointsView : public QWidget {
    Q_OBJECT
public:
    explicit BreakpointsView(QWidget* parent = nullptr);
    void show(const DebugReply& reply);
    using QWidget::show;
    QLineEdit* watchField() const { return field_; }
    QTreeWidget* tree() const { return tree_; }
    // Asks the session for a watchpoint: "block_sums(1)", "shared 16 f32", or a whole
    // `watch`/`rwatch` command.
    void addWatch(const QString& what);

signals:
    void commandRequested(const QString& command);
    // Where the breakpoint was asked, as `break` takes it: "18", or "*24" for an instruction.
    void removeBreakpoint(const QString& place);

private:
    void removeSelected();

    QLineEdit* field_;
    QTreeWidget* tree_;
};

} // namespace kw
