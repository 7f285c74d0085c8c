#include "RunComparison.hpp"

#include "views/PlotTheme.hpp"

#include "ThemeColours.hpp"

#include "doc/DocumentWriter.hpp"
#include "util/LineDiff.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

// The document without its source: what the settings diff compares.
std::string settingsText(Document d)
{
    d.source.clear();
    d.description.clear();
    return DocumentWriter::toString(d);
}

QString diffHtml(const std::vector<DiffLine>& diff, const QPalette& pal)
{
    const QString removed = ThemeColours::tint(pal, ThemeColours::error(pal), 0.25).name();
    const QString added = ThemeColours::tint(pal, QColor(60, 170, 60), 0.25).name();
    QString html = "<pre style=\"margin:0\">";
    for (const DiffLine& l : diff) {
        const QString text = q(l.text).toHtmlEscaped();
        switch (l.kind) {
        case DiffLine::Kind::Same: html += "  " + text + "\n"; break;
        case DiffLine::Kind::Removed:
            html += QString("<span style=\"background:%1\">- %2</span>\n").arg(removed, text);
            break;
        case DiffLine::Kind::Added:
            html += QString("<span style=\"background:%1\">+ %2</span>\n").arg(added, text);
            break;
        }
    }
    return html + "</pre>";
}

QString ms(double v) { return v >= 1 ? QString::number(v, 'f', 3) + " ms" : QString::number(v * 1000, 'f', 2) + " µs"; }
} // namespace

RunComparison::RunComparison(QWidget* parent)
    : QWidget(parent)
    , tabs_(new QTabWidget(this))
    , source_(new QTextBrowser(this))
    , timings_(new QTableWidget(this))
    , buffer_(new QComboBox(this))
    , summary_(new QLabel(this))
    , plot_(new QCustomPlot(this))
{
    source_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    source_->setLineWrapMode(QTextEdit::NoWrap);
    timings_->setColumnCount(4);
    timings_->verticalHeader()->hide();
    timings_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    timings_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);

    auto* output = new QWidget(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Buffer:"), output));
    top->addWidget(buffer_);
    top->addWidget(summary_, 1);
    summary_->setWordWrap(true);
    auto* v = new QVBoxLayout(output);
    v->setContentsMargins(0, 0, 0, 0);
    v->addLayout(top);
    v->addWidget(plot_, 1);
    plot_->addGraph();
    plot_->graph(0)->setPen(QPen(QColor(214, 39, 40), 1.5));
    plot_->xAxis->setLabel(tr("index"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    tabs_->addTab(source_, tr("Source and settings"));
    tabs_->addTab(timings_, tr("Timings"));
    tabs_->addTab(output, tr("Output difference"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    connect(buffer_, &QComboBox::currentIndexChanged, this, &RunComparison::showDifference);
    clear();
    PlotTheme::follow(plot_);
}

void RunComparison::clear()
{
    a_.reset();
    b_.reset();
    source_->setPlainText(tr("Pick two runs and press Compare."));
    timings_->setRowCount(0);
    const QSignalBlocker quiet(buffer_);
    buffer_->clear();
    summary_->clear();
    plot_->graph(0)->data()->clear();
    plot_->replot();
}

void RunComparison::compare(const RunHistory::Entry& a, const RunHistory::Entry& b)
{
    a_ = a;
    b_ = b;
    showSource();
    showTimings();
    // Output buffers both runs have, with the same element count.
    const QSignalBlocker quiet(buffer_);
    buffer_->clear();
    if (a.result && b.result)
        for (const BufferResult& x : b.result->buffers) {
            if (x.direction == Direction::In)
                continue;
            for (const BufferResult& y : a.result->buffers)
                if (y.name == x.name && y.data.count() == x.data.count())
                    buffer_->addItem(q(x.name));
        }
    showDifference();
}

void RunComparison::showSource()
{
    const auto code = LineDiff::compare(a_->document.source, b_->document.source);
    const auto settings = LineDiff::compare(settingsText(a_->document), settingsText(b_->document));
    QString html = tr("<p><b>Run %1 → run %2</b>: ").arg(a_->number).arg(b_->number);
    html += LineDiff::identical(code) ? tr("the source is the same.")
                                      : tr("the source changed (- run %1, + run %2).").arg(a_->number).arg(b_->number);
    html += "</p>" + diffHtml(code, palette());
    if (LineDiff::identical(settings)) {
        html += tr("<p>Settings (variables, buffers, launch) are the same.</p>");
    } else {
        std::vector<DiffLine> changed;
        for (const DiffLine& l : settings)
            if (l.kind != DiffLine::Kind::Same)
                changed.push_back(l);
        html += tr("<p><b>Settings that changed</b>:</p>") + diffHtml(changed, palette());
    }
    source_->setHtml(html);
}

void RunComparison::showTimings()
{
    const RunResult* ra = a_->result.get();
    const RunResult* rb = b_->result.get();
    timings_->setHorizontalHeaderLabels(
        {tr("Figure"), tr("Run %1").arg(a_->number), tr("Run %1").arg(b_->number), tr("Change")});
    struct Row {
        QString name;
        double a, b;
    };
    const bool sim = (ra && ra->device.id == "sim") || (rb && rb->device.id == "sim");
    const QString kernel = sim ? tr("simulator time, median (CPU)") : tr("kernel time, median");
    const std::vector<Row> rows = {
        {kernel, ra ? ra->timings.medianMs : 0, rb ? rb->timings.medianMs : 0},
        {sim ? tr("simulator time, min") : tr("kernel time, min"), ra ? ra->timings.minMs : 0,
         rb ? rb->timings.minMs : 0},
        {tr("compile"), ra ? ra->timings.compileMs : 0, rb ? rb->timings.compileMs : 0},
    };
    timings_->setRowCount(int(rows.size()) + 1);
    int r = 0;
    for (const Row& row : rows) {
        timings_->setItem(r, 0, new QTableWidgetItem(row.name));
        timings_->setItem(r, 1, new QTableWidgetItem(ms(row.a)));
        timings_->setItem(r, 2, new QTableWidgetItem(ms(row.b)));
        QString change;
        if (row.a > 0 && row.b > 0)
            change = row.b < row.a ? tr("%1× faster").arg(row.a / row.b, 0, 'f', 2)
                                   : tr("%1× slower").arg(row.b / row.a, 0, 'f', 2);
        timings_->setItem(r, 3, new QTableWidgetItem(change));
        ++r;
    }
    timings_->setItem(r, 0, new QTableWidgetItem(tr("device")));
    timings_->setItem(r, 1, new QTableWidgetItem(a_->device));
    timings_->setItem(r, 2, new QTableWidgetItem(b_->device));
    timings_->setItem(r, 3, new QTableWidgetItem(a_->device == b_->device ? QString() : tr("different devices")));
}

void RunComparison::showDifference()
{
    plot_->graph(0)->data()->clear();
    const QString name = buffer_->currentText();
    const BufferResult *x = nullptr, *y = nullptr;
    if (a_ && b_ && a_->result && b_->result)
        for (const BufferResult& br : a_->result->buffers)
            if (q(br.name) == name)
                x = &br;
    if (x)
        for (const BufferResult& br : b_->result->buffers)
            if (q(br.name) == name)
                y = &br;
    if (!x || !y) {
        summary_->setText(buffer_->count() ? QString() : tr("The two runs have no output buffer in common."));
        plot_->replot();
        return;
    }
    const std::size_t n = x->data.count();
    // At most about 100 000 points drawn; the summary still reads every element.
    const std::size_t stride = std::max<std::size_t>(1, n / 100000);
    QVector<double> keys, values;
    double maxAbs = 0;
    std::size_t where = 0, differ = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double d = y->data.at(i) - x->data.at(i);
        if (d != 0 || std::isnan(d))
            ++differ;
        if (std::fabs(d) > maxAbs) {
            maxAbs = std::fabs(d);
            where = i;
        }
        if (i % stride == 0) {
            keys << double(i);
            values << d;
        }
    }
    plot_->graph(0)->setData(keys, values, true);
    plot_->yAxis->setLabel(tr("%1: run %2 − run %3").arg(name).arg(b_->number).arg(a_->number));
    plot_->rescaleAxes();
    if (maxAbs == 0)
        plot_->yAxis->setRange(-1, 1);
    plot_->replot();
    summary_->setText(differ == 0 ? tr("The outputs are identical (%L1 elements).").arg(n)
                                  : tr("%L1 of %L2 elements differ; the largest difference is %3 at index %L4.")
                                        .arg(differ)
                                        .arg(n)
                                        .arg(maxAbs, 0, 'g', 6)
                                        .arg(where));
}

} // namespace kw
