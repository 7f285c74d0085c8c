#include "views/ChecksView.hpp"

#include "PlotTheme.hpp"

#include <qcustomplot.h>

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kw {

namespace {
const QColor passColour(46, 125, 50), failColour(198, 40, 40);

QTableWidgetItem* item(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter)
{
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(align);
    it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return it;
}
QTableWidgetItem* number(double v) { return item(QString::number(v, 'g', 8), Qt::AlignRight | Qt::AlignVCenter); }
} // namespace

ChecksView::ChecksView(QWidget* parent)
    : QWidget(parent)
    , headline_(new QLabel(this))
    , summary_(new QTableWidget(this))
    , plot_(new QCustomPlot(this))
    , mismatches_(new QTableWidget(this))
{
    summary_->setColumnCount(7);
    summary_->setHorizontalHeaderLabels({tr("Result"), tr("Buffer"), tr("Expected"), tr("Checked"), tr("Mismatches"),
                                         tr("Max abs error"), tr("Max rel error")});
    summary_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    summary_->verticalHeader()->hide();
    mismatches_->setColumnCount(5);
    mismatches_->setHorizontalHeaderLabels(
        {tr("Buffer"), tr("Index"), tr("Got"), tr("Expected"), tr("Got - expected")});
    mismatches_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    mismatches_->verticalHeader()->hide();

    plot_->xAxis->setLabel(tr("index"));
    plot_->xAxis->setNumberFormat(QStringLiteral("f"));
    plot_->xAxis->setNumberPrecision(0);
    plot_->yAxis->setLabel(tr("got - expected"));
    plot_->legend->setVisible(true);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setMinimumHeight(90); // the results dock must fit under the editor on a laptop

    QFont f = headline_->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    headline_->setFont(f);
    // Never empty: an empty label is a pixel shorter, and a height change when the
    // first result arrives re-lays out the whole dock.
    headline_->setText(tr("No checks in this document."));

    summary_->setMinimumHeight(50);
    mismatches_->setMinimumHeight(50);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(summary_);
    split->addWidget(plot_);
    split->addWidget(mismatches_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    // The three parts scroll when the dock is lower than they need: the results dock
    // then asks for little height and the editor above it keeps its lines.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(split);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(headline_);
    layout->addWidget(scroll, 1);

    connect(mismatches_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        emit mismatchActivated(mismatches_->item(row, 0)->text(), mismatches_->item(row, 1)->text().toULongLong());
    });
    PlotTheme::follow(plot_);
}

void ChecksView::setChecks(const std::vector<CheckResult>& checks)
{
    int failed = 0;
    summary_->setRowCount(int(checks.size()));
    mismatches_->setRowCount(0);
    plot_->clearGraphs();
    static const QColor palette[] = {QColor(214, 39, 40), QColor(255, 127, 14), QColor(148, 103, 189),
                                     QColor(140, 86, 75), QColor(227, 119, 194)};
    int row = 0;
    for (const CheckResult& c : checks) {
        failed += c.passed ? 0 : 1;
        auto* result = item(c.passed ? tr("PASS") : tr("FAIL"), Qt::AlignCenter);
        result->setForeground(Qt::white);
        result->setBackground(c.passed ? passColour : failColour);
        QFont bold = result->font();
        bold.setBold(true);
        result->setFont(bold);
        summary_->setItem(row, 0, result);
        summary_->setItem(row, 1, item(QString::fromStdString(c.buffer)));
        summary_->setItem(row, 2, item(QString::fromStdString(c.expect)));
        summary_->setItem(row, 3, number(double(c.checked)));
        summary_->setItem(row, 4, number(double(c.mismatches)));
        summary_->setItem(row, 5, number(c.maxAbsError));
        summary_->setItem(row, 6, number(c.maxRelError));
        ++row;

        if (c.firstMismatches.empty())
            continue;
        auto* g = plot_->addGraph();
        g->setName(QString::fromStdString(c.buffer));
        const QColor colour = palette[(plot_->graphCount() - 1) % 5];
        g->setPen(QPen(colour, 1.5));
        g->setLineStyle(QCPGraph::lsImpulse);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 6));
        for (const Mismatch& m : c.firstMismatches) {
            g->addData(double(m.index), m.got - m.expected);
            const int r = mismatches_->rowCount();
            mismatches_->insertRow(r);
            mismatches_->setItem(r, 0, item(QString::fromStdString(c.buffer)));
            mismatches_->setItem(r, 1, number(double(m.index)));
            mismatches_->setItem(r, 2, number(m.got));
            mismatches_->setItem(r, 3, number(m.expected));
            mismatches_->setItem(r, 4, number(m.got - m.expected));
        }
    }
    summary_->resizeColumnsToContents();
    summary_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    // As tall as its rows, so the error plot gets the room.
    int height = summary_->horizontalHeader()->height() + 2 * summary_->frameWidth() + 2;
    for (int r = 0; r < summary_->rowCount(); ++r)
        height += summary_->rowHeight(r);
    summary_->setMaximumHeight(height);
    int mismatchHeight = mismatches_->horizontalHeader()->height() + 2 * mismatches_->frameWidth() + 2;
    for (int r = 0; r < mismatches_->rowCount(); ++r)
        mismatchHeight += mismatches_->rowHeight(r);
    mismatches_->setMaximumHeight(mismatchHeight);

    if (checks.empty())
        headline_->setText(tr("No checks in this document."));
    else if (failed == 0)
        headline_->setText(tr("All %1 checks passed.").arg(checks.size()));
    else
        headline_->setText(tr("%1 of %2 checks failed. The plot shows got - expected at the first "
                              "mismatching indices.")
                               .arg(failed)
                               .arg(checks.size()));
    headline_->setStyleSheet(
        checks.empty() ? QString() : QStringLiteral("color: %1;").arg((failed ? failColour : passColour).name()));
    plot_->setVisible(plot_->graphCount() > 0);
    mismatches_->setVisible(mismatches_->rowCount() > 0);
    if (plot_->graphCount() > 0) {
        plot_->rescaleAxes();
        // Impulses start at zero: keep zero in view, with a margin around the points.
        QCPRange y = plot_->yAxis->range();
        y.expand(0.0);
        const double pad = y.size() > 0 ? y.size() * 0.1 : 1.0;
        plot_->yAxis->setRange(y.lower - pad, y.upper + pad);
        QCPRange x = plot_->xAxis->range();
        const double xpad = x.size() > 0 ? x.size() * 0.05 : 1.0;
        plot_->xAxis->setRange(x.lower - xpad, x.upper + xpad);
    }
    plot_->replot();
}

} // namespace kw
