#include "ProblemsPanel.hpp"

#include <QHeaderView>

namespace kw {

ProblemsPanel::ProblemsPanel(QWidget* parent)
    : QTreeWidget(parent)
{
    setColumnCount(3);
    setHeaderLabels({tr("Message"), tr("Line"), tr("Column")});
    setRootIsDecorated(true);
    setUniformRowHeights(false);
    setWordWrap(true);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setStretchLastSection(false);
    auto jump = [this](QTreeWidgetItem* item) {
        while (item && item->parent())
            item = item->parent();
        if (item)
            emit locationActivated(item->data(1, Qt::UserRole).toInt(), item->data(2, Qt::UserRole).toInt());
    };
    connect(this, &QTreeWidget::itemClicked, this, jump);
    connect(this, &QTreeWidget::itemActivated, this, jump);
}

void ProblemsPanel::setDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
    clear();
    errors_ = warnings_ = 0;
    for (const Diagnostic& d : diagnostics) {
        auto* item = new QTreeWidgetItem(this);
        item->setText(0, QString::fromStdString(d.message));
        item->setToolTip(0, QString::fromStdString(d.file + ": " + d.message));
        item->setText(1, d.line > 0 ? QString::number(d.line) : QString());
        item->setText(2, d.column > 0 ? QString::number(d.column) : QString());
        item->setData(1, Qt::UserRole, d.line);
        item->setData(2, Qt::UserRole, d.column);
        switch (d.severity) {
        case Severity::Error:
            item->setIcon(0, QIcon(":/kw/icons/error.svg"));
            ++errors_;
            break;
        case Severity::Warning:
            item->setIcon(0, QIcon(":/kw/icons/warning.svg"));
            ++warnings_;
            break;
        default: break;
        }
        for (const std::string& note : d.notes)
            new QTreeWidgetItem(item, {QString::fromStdString(note)});
    }
    expandAll();
    emit countsChanged(errors_, warnings_);
}

} // namespace kw
