#include "VariablesTable.hpp"

#include "ThemeColours.hpp"

#include "doc/Expression.hpp"
#include "doc/VariableScope.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <utility>

namespace kw {

VariablesTable::VariablesTable(QWidget* parent)
    : QWidget(parent)
{
    table_ = new QTableWidget(0, 3, this);
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Expression"), tr("Value")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    auto* add = new QPushButton(tr("Add"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(table_);
    layout->addLayout(buttons);

    connect(add, &QPushButton::clicked, this, [this] {
        addRow(QString("v%1").arg(table_->rowCount()), "0");
        evaluate();
        emit changed();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (table_->currentRow() >= 0) {
            table_->removeRow(table_->currentRow());
            evaluate();
            emit changed();
        }
    });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (loading_ || item->column() == 2)
            return;
        evaluate();
        emit changed();
    });
}

void VariablesTable::addRow(const QString& name, const QString& expression)
{
    // setItem announces each cell as changed; evaluating a half-built row would
    // read its missing cells.
    const bool wasLoading = std::exchange(loading_, true);
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setItem(row, 0, new QTableWidgetItem(name));
    table_->setItem(row, 1, new QTableWidgetItem(expression));
    auto* value = new QTableWidgetItem;
    value->setFlags(value->flags() & ~Qt::ItemIsEditable);
    table_->setItem(row, 2, value);
    loading_ = wasLoading;
}

void VariablesTable::setVariables(const Variables& variables)
{
    loading_ = true;
    table_->setRowCount(0);
    for (const auto& [name, expr] : variables)
        addRow(QString::fromStdString(name), QString::fromStdString(expr));
    loading_ = false;
    evaluate();
}

VariablesTable::Variables VariablesTable::variables() const
{
    Variables out;
    for (int r = 0; r < table_->rowCount(); ++r) {
        const QString name = table_->item(r, 0) ? table_->item(r, 0)->text().trimmed() : QString();
        const QString expr = table_->item(r, 1) ? table_->item(r, 1)->text().trimmed() : QString();
        if (!name.isEmpty())
            out.emplace_back(name.toStdString(), expr.toStdString());
    }
    return out;
}

QStringList VariablesTable::names() const
{
    QStringList out;
    for (const auto& v : variables())
        out << QString::fromStdString(v.first);
    return out;
}

void VariablesTable::evaluate()
{
    loading_ = true;
    VariableScope scope;
    for (int r = 0; r < table_->rowCount(); ++r) {
        const std::string name = table_->item(r, 0)->text().trimmed().toStdString();
        const std::string expr = table_->item(r, 1)->text().trimmed().toStdString();
        QTableWidgetItem* value = table_->item(r, 2);
        try {
            if (!isIdentifier(name))
                throw std::runtime_error("\"" + name + "\" is not a valid name");
            const double v = scope.evaluate(expr, "variables[" + std::to_string(r) + "] (" + name + ")");
            scope.set(name, v);
            value->setText(QString::fromStdString(formatNumber(v)));
            value->setForeground(palette().text());
            value->setToolTip(QString());
        } catch (const std::exception& e) {
            value->setText(tr("error"));
            value->setForeground(ThemeColours::error(palette()));
            value->setToolTip(QString::fromUtf8(e.what()));
        }
    }
    loading_ = false;
}

} // namespace kw
