#include "debugger/BreakpointsView.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace kw {

namespace {
constexpr int kKindRole = Qt::UserRole;      // "break" or "watch"
constexpr int kIdRole = Qt::UserRole + 1;    // the session's id
constexpr int kPlaceRole = Qt::UserRole + 2; // where a breakpoint was asked ("18", "*24")
} // namespace

BreakpointsView::BreakpointsView(QWidget* parent)
    : QWidget(parent)
{
    field_ = new QLineEdit;
    field_->setPlaceholderText(tr("Watch: block_sums(1), shared 16 f32, rwatch in(3)…"));
    field_->setToolTip(tr("Stops after an instruction writes the element (rwatch: reads it) and names who did"));
    connect(field_, &QLineEdit::returnPressed, this, [this] {
        addWatch(field_->text());
        field_->clear();
    });
    auto* remove = new QPushButton(tr("Remove"));
    connect(remove, &QPushButton::clicked, this, &BreakpointsView::removeSelected);
    tree_ = new QTreeWidget;
    tree_->setColumnCount(3);
    tree_->setHeaderLabels({tr("What"), tr("Where"), tr("Hits")});
    tree_->setRootIsDecorated(false);
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* top = new QHBoxLayout;
    top->addWidget(field_, 1);
    top->addWidget(remove);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(tree_);
}

void BreakpointsView::addWatch(const QString& what)
{
    const QString w = what.trimmed();
    if (w.isEmpty())
        return;
    emit commandRequested(w.startsWith("watch ") || w.startsWith("rwatch ") ? w : "watch " + w);
}

void BreakpointsView::show(const DebugReply& reply)
{
    tree_->clear();
    for (const DebugBreakpoint& b : reply.breakpoints) {
        QString what = tr("breakpoint %1").arg(b.id);
        if (!b.condition.isEmpty())
            what += tr(" if %1").arg(b.condition);
        if (b.ignore)
            what += tr(", ignoring %1 hits").arg(b.ignore);
        if (b.allLanes)
            what += tr(", all lanes");
        const QString where = b.pc >= 0 ? tr("pc %1 (line %2)").arg(b.pc).arg(b.line) : tr("line %1").arg(b.line);
        auto* item = new QTreeWidgetItem({what, where, QString::number(b.hits)});
        item->setData(0, kKindRole, "break");
        item->setData(0, kIdRole, b.id);
        item->setData(0, kPlaceRole, b.place());
        tree_->addTopLevelItem(item);
    }
    for (const DebugWatch& w : reply.watches) {
        const QString what = w.buffer.isEmpty() ? tr("shared %1 (%2)").arg(w.index).arg(w.type)
                                                : QString("%1(%2)").arg(w.buffer).arg(w.index);
        auto* item = new QTreeWidgetItem({tr("%1 %2").arg(w.reads ? tr("read watchpoint") : tr("watchpoint")).arg(w.id),
                                          what, QString::number(w.hits)});
        item->setData(0, kKindRole, "watch");
        item->setData(0, kIdRole, w.id);
        tree_->addTopLevelItem(item);
    }
}

void BreakpointsView::removeSelected()
{
    const QTreeWidgetItem* item = tree_->currentItem();
    if (!item)
        return;
    if (item->data(0, kKindRole).toString() == "watch")
        emit commandRequested(QString("delete watch %1").arg(item->data(0, kIdRole).toInt()));
    else
        emit removeBreakpoint(item->data(0, kPlaceRole).toString());
}

} // namespace kw
