#include "RunHistoryPanel.hpp"

#include "RunComparison.hpp"
#include "RunHistory.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kw {

RunHistoryPanel::RunHistoryPanel(RunHistory* history, QWidget* parent)
    : QWidget(parent)
    , history_(history)
    , list_(new QTableWidget(this))
    , first_(new QComboBox(this))
    , second_(new QComboBox(this))
    , compare_(new QPushButton(tr("Compare"), this))
    , comparison_(new RunComparison(this))
{
    list_->setColumnCount(4);
    list_->setHorizontalHeaderLabels({tr("Run"), tr("Time"), tr("Device"), tr("Median")});
    list_->verticalHeader()->hide();
    list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    list_->setSelectionBehavior(QAbstractItemView::SelectRows);
    list_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    list_->horizontalHeader()->setStretchLastSection(true);

    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Compare run"), this));
    pick->addWidget(first_);
    pick->addWidget(new QLabel(tr("with"), this));
    pick->addWidget(second_);
    pick->addWidget(compare_);
    pick->addStretch();
    auto* left = new QWidget(this);
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(0, 0, 0, 0);
    lv->addWidget(list_, 1);
    lv->addLayout(pick);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(comparison_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);

    connect(history_, &RunHistory::changed, this, &RunHistoryPanel::refresh);
    connect(compare_, &QPushButton::clicked, this,
            [this] { compareRuns(first_->currentData().toInt(), second_->currentData().toInt()); });
    refresh();
}

void RunHistoryPanel::refresh()
{
    const auto& entries = history_->entries();
    // Sized to the contents once, after the rows are in: sized per item, the rows of a
    // full history took longer than a frame, and a run's result waited for them.
    QHeaderView* header = list_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    list_->setRowCount(int(entries.size()));
    const QSignalBlocker q1(first_), q2(second_);
    first_->clear();
    second_->clear();
    const QDate todayIs = QDate::currentDate();
    int row = 0;
    for (auto it = entries.rbegin(); it != entries.rend(); ++it, ++row) { // newest first
        const RunHistory::Entry& e = *it;
        const bool sim = e.result && e.result->device.id == "sim";
        QString median = e.result && e.result->fault ? tr("fault")
            : e.result                               ? QString::number(e.result->timings.medianMs, 'g', 4) + " ms"
                                                     : QString();
        if (sim && !median.isEmpty() && !e.result->fault)
            median += tr(" (sim)");
        list_->setItem(row, 0, new QTableWidgetItem(QString::number(e.number)));
        // Runs kept from an earlier day say which day.
        const bool today = e.when.date() == todayIs;
        list_->setItem(row, 1, new QTableWidgetItem(e.when.toString(today ? "HH:mm:ss" : "d MMM HH:mm")));
        list_->setItem(row, 2, new QTableWidgetItem(e.device));
        list_->setItem(row, 3, new QTableWidgetItem(median));
        first_->addItem(tr("%1").arg(e.number), e.number);
        second_->addItem(tr("%1").arg(e.number), e.number);
    }
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(true);
    // By default the newest run against the one before it.
    if (entries.size() >= 2) {
        first_->setCurrentIndex(1);
        second_->setCurrentIndex(0);
    }
    compare_->setEnabled(entries.size() >= 2);
    if (entries.empty())
        comparison_->clear();
}

bool RunHistoryPanel::compareRuns(int first, int second)
{
    const RunHistory::Entry* a = history_->find(first);
    const RunHistory::Entry* b = history_->find(second);
    if (!a || !b)
        return false;
    comparison_->compare(*a, *b);
    return true;
}

} // namespace kw
