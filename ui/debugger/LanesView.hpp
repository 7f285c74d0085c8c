#pragma once
// The focused warp's 32 lanes at a stop: each lane's state (running, waiting elsewhere
// after a divergent branch, at a barrier, exited) in colour, its thread of the block,
// a column per local variable of the source in scope (-G: `tid`, `stride`, with their
// types, in the order they are declared; "not available here" where a variable has no
// place at this pc), then a column per expression the user adds (`%f4`, `threadIdx.x`,
// `in(i)`), as the session's `lanes` command evaluates them (docs/debugger.md,
// "Expressions"), then the kernel's parameters, scalars before pointers: what changes
// from step to step is in view first on a small screen.
#include "debugger/CompactTable.hpp"
#include "debugger/DebugReply.hpp"

#include <QWidget>

#include <cstdint>
#include <tuple>

class QLineEdit;

namespace kw {

class LanesView : public QWidget {
    Q_OBJECT
public:
    explicit LanesView(QWidget* parent = nullptr);

    QStringList expressions() const { return expressions_; }
    void addExpression(const QString& expression);
    void removeExpression(int index);
    // The lanes' states from the reply's warp; the expressions' values when it carries them.
    void show(const DebugReply& reply);
    using QWidget::show;

    QTableWidget* table() const { return table_; }
    // The table's column of a source variable in scope, or of the user's expression; -1: none.
    int variableColumn(const QString& name) const;
    int expressionColumn(const QString& expression) const;
    QLineEdit* expressionField() const { return field_; }
    // A column's whole header ("tid (unsigned int)", an expression); the header shows it
    // elided at the right where the column is narrower, the name first.
    QString headerText(int column) const { return headers_.value(column); }
    static QColor stateColour(const QString& state);

signals:
    void expressionsChanged();

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void rebuildColumns();
    void fill(const DebugReply& reply);
    void fillVariables(const DebugReply& reply);
    void fitColumns();

    QStringList expressions_;
    // The source's variables shown, in their columns' order: the first `leading_` (the
    // locals) before the expressions, the parameters after them.
    QStringList variables_, variableTypes_;
    int leading_ = 0;
    QStringList headers_, names_; // every column's whole header, and its name alone (a variable's, without its type)
    int variableColumnAt(int v) const;
    std::tuple<std::uint64_t, std::uint64_t, int> valuesOf_{}; // the stop and focus the expressions' values are of
    QLineEdit* field_;
    CompactTable* table_;
};

} // namespace kw
