#include "GradeResultsView.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kw {
namespace {

enum Column { Case, Size, Result, Line, Time, Counters, What, Columns };
constexpr int kLineRole = Qt::UserRole + 1;

QString text(const nlohmann::json& j, const char* key)
{
    return j.contains(key) && j[key].is_string() ? QString::fromStdString(j[key].get<std::string>()) : QString();
}

} // namespace

GradeResultsView::GradeResultsView(QWidget* parent)
    : QWidget(parent)
    , summary_(new QLabel(tr("Open an exercise (File ▸ Open, *.kwx) and grade it with Exercise ▸ Grade.")))
    , table_(new QTableWidget(0, Columns))
{
    summary_->setWordWrap(true);
    table_->setHorizontalHeaderLabels(
        {tr("Case"), tr("Size"), tr("Result"), tr("Line"), tr("Time"), tr("Counters"), tr("What")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false); // one line a case; the whole text is the cell's tooltip
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        const QVariant line = table_->item(row, Case)->data(kLineRole);
        if (line.isValid() && line.toInt() > 0)
            emit lineActivated(line.toInt());
    });
}

int GradeResultsView::rowCount() const { return table_->rowCount(); }

void GradeResultsView::showMessage(const QString& text)
{
    summary_->setText(text);
    table_->setRowCount(0);
}

void GradeResultsView::showReport(const nlohmann::json& report)
{
    table_->setRowCount(0);
    if (!report.contains("solutions") || report["solutions"].empty()) {
        summary_->setText(tr("No grade came back."));
        return;
    }
    const nlohmann::json& s = report["solutions"][0];
    const auto& cases = s["cases"];
    table_->setRowCount(int(cases.size()));
    int row = 0;
    for (const auto& c : cases) {
        QString what = text(c, "message");
        int line = 0;
        if (c.contains("first_wrong")) {
            const auto& w = c["first_wrong"];
            if (w.contains("writer")) {
                const auto& wr = w["writer"];
                line = wr["line"].get<int>();
                what += tr(" — written by block (%1,%2,%3) thread (%4,%5,%6), line %7")
                            .arg(wr["block"][0].get<int>())
                            .arg(wr["block"][1].get<int>())
                            .arg(wr["block"][2].get<int>())
                            .arg(wr["thread"][0].get<int>())
                            .arg(wr["thread"][1].get<int>())
                            .arg(wr["thread"][2].get<int>())
                            .arg(line);
            } else if (w.contains("writer_note")) {
                what += " — " + text(w, "writer_note");
            }
        }
        QStringList counters;
        for (const auto& g : c["goals"])
            counters << text(g, "text") + (g["met"].get<bool>() ? QString() : tr(" (missed)"));
        const bool passed = c["passed"].get<bool>();
        const QString cells[Columns] = {text(c, "name"),
                                        text(c, "size"),
                                        text(c, "result"),
                                        line > 0 ? QString::number(line) : QString(),
                                        QString::number(c["ms"].get<double>(), 'f', 0) + " ms",
                                        counters.join("; "),
                                        what};
        for (int col = 0; col < Columns; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            if (col == Result)
                item->setForeground(passed ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
            if (col == What)
                item->setToolTip(cells[col]);
            table_->setItem(row, col, item);
        }
        if (line > 0)
            table_->item(row, Case)->setData(kLineRole, line);
        ++row;
    }
    table_->resizeColumnsToContents();
    const std::size_t passed = s["passed"].get<std::size_t>(), total = s["cases_total"].get<std::size_t>();
    QString summary = tr("%1: %2 of %3 cases passed on %4.")
                          .arg(text(report, "exercise"))
                          .arg(passed)
                          .arg(total)
                          .arg(text(report, "device"));
    if (passed < total)
        summary += tr(" Double-click a failed case to go to the line of its first wrong write.");
    summary_->setText(summary);
}

} // namespace kw
