// VariablesTable: each variable's value is evaluated in order (later ones may use
// earlier ones), a bad name or expression shows "error" with the reason, edits are
// announced and reach variables(), and Add and Remove change the rows.
#include "VariablesTable.hpp"

#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <gtest/gtest.h>

using kw::VariablesTable;

namespace {

QTableWidget* tableOf(VariablesTable& v) { return v.findChild<QTableWidget*>(); }
QString valueAt(VariablesTable& v, int row) { return tableOf(v)->item(row, 2)->text(); }
QPushButton* button(VariablesTable& v, const QString& text)
{
    for (QPushButton* b : v.findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

} // namespace

TEST(VariablesTable, ValuesAreEvaluatedInOrderAndFollowEdits)
{
    VariablesTable v;
    v.setVariables({{"n", "1 << 10"}, {"block", "256"}, {"grid", "cdiv(n, block)"}, {"half", "n / 2"}});
    QTableWidget* t = tableOf(v);
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(t->rowCount(), 4);
    EXPECT_EQ(valueAt(v, 0), "1024");
    EXPECT_EQ(valueAt(v, 1), "256");
    EXPECT_EQ(valueAt(v, 2), "4");
    EXPECT_EQ(valueAt(v, 3), "512");
    EXPECT_FALSE(t->item(0, 2)->flags() & Qt::ItemIsEditable) << "values are computed, not typed";

    // Editing an earlier variable moves the later ones; the edit is announced.
    QSignalSpy changed(&v, &VariablesTable::changed);
    t->item(0, 1)->setText("1000");
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(valueAt(v, 0), "1000");
    EXPECT_EQ(valueAt(v, 2), "4");
    EXPECT_EQ(valueAt(v, 3), "500");
    const VariablesTable::Variables vars = v.variables();
    ASSERT_EQ(vars.size(), 4u);
    EXPECT_EQ(vars[0], (std::pair<std::string, std::string>{"n", "1000"}));
    EXPECT_EQ(vars[2], (std::pair<std::string, std::string>{"grid", "cdiv(n, block)"}));
    EXPECT_EQ(v.names(), (QStringList{"n", "block", "grid", "half"}));
}

TEST(VariablesTable, BadNamesAndExpressionsShowErrorWithTheReason)
{
    VariablesTable v;
    v.setVariables({{"n", "8"}, {"2x", "1"}, {"m", "k * 2"}, {"p", "n +"}, {"q", "n * 3"}});
    QTableWidget* t = tableOf(v);
    EXPECT_EQ(valueAt(v, 0), "8");
    EXPECT_EQ(valueAt(v, 1), "error");
    EXPECT_TRUE(t->item(1, 2)->toolTip().contains("2x")) << t->item(1, 2)->toolTip().toStdString();
    EXPECT_EQ(valueAt(v, 2), "error");
    EXPECT_TRUE(t->item(2, 2)->toolTip().contains("\"k\"")) << t->item(2, 2)->toolTip().toStdString();
    EXPECT_EQ(valueAt(v, 3), "error");
    EXPECT_FALSE(t->item(3, 2)->toolTip().isEmpty());
    EXPECT_EQ(valueAt(v, 4), "24") << "a bad variable does not stop the ones after it";

    // Fixing it clears the error.
    t->item(2, 1)->setText("n * 2");
    EXPECT_EQ(valueAt(v, 2), "16");
    EXPECT_TRUE(t->item(2, 2)->toolTip().isEmpty());
}

TEST(VariablesTable, AddAndRemoveChangeTheRows)
{
    VariablesTable v;
    v.setVariables({{"n", "4"}});
    QSignalSpy changed(&v, &VariablesTable::changed);
    QPushButton* add = button(v, "Add");
    QPushButton* remove = button(v, "Remove");
    ASSERT_TRUE(add && remove);
    add->click();
    EXPECT_EQ(changed.count(), 1);
    ASSERT_EQ(v.variables().size(), 2u);
    EXPECT_EQ(v.variables()[1].second, "0");
    EXPECT_EQ(valueAt(v, 1), "0");

    QTableWidget* t = tableOf(v);
    t->setCurrentCell(0, 0);
    remove->click();
    EXPECT_EQ(changed.count(), 2);
    ASSERT_EQ(v.variables().size(), 1u);
    EXPECT_NE(v.variables()[0].first, "n") << "the selected row went";

    // Rows without a name are not variables.
    t->item(0, 0)->setText("  ");
    EXPECT_TRUE(v.variables().empty());
}
