#include "RunComparison.hpp"

#include "views/HeatMap.hpp"
#include "views/PlotTheme.hpp"

#include "ThemeColours.hpp"

#include "data/BufferDifference.hpp"
#include "doc/DocumentChanges.hpp"
#include "util/LineDiff.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

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

// A difference is signed: blue below zero, red above, white where the runs agree.
QCPColorGradient divergingGradient()
{
    QCPColorGradient g;
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setColorStops({{0.0, QColor(33, 102, 172)}, {0.5, QColor(247, 247, 247)}, {1.0, QColor(178, 24, 43)}});
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

const BufferResult* findBuffer(const RunResult* r, const QString& name)
{
    if (r)
        for (const BufferResult& b : r->buffers)
            if (q(b.name) == name)
                return &b;
    return nullptr;
}

// "row 3, column 7" for a 2-D shape, "index 12" for 1-D, "slice 1, row 3, column 7" for 3-D.
QString placeText(std::size_t index, const std::vector<std::size_t>& shape)
{
    if (shape.size() < 2 || shape.size() > 3)
        return QObject::tr("index %L1").arg(index);
    const auto p = BufferDifference::place(index, shape);
    const QString rc = QObject::tr("row %L1, column %L2").arg(p[p.size() - 2]).arg(p.back());
    return shape.size() == 3 ? QObject::tr("slice %L1, %2").arg(p[0]).arg(rc) : rc;
}
} // namespace

RunComparison::RunComparison(QWidget* parent)
    : QWidget(parent)
    , tabs_(new QTabWidget(this))
    , changesSummary_(new QLabel(this))
    , changes_(new QTreeWidget(this))
    , source_(new QTextBrowser(this))
    , timings_(new QTableWidget(this))
    , buffer_(new QComboBox(this))
    , summary_(new QLabel(this))
    , views_(new QStackedWidget(this))
    , plot_(new QCustomPlot(this))
    , map_(new HeatMap(this))
{
    changesSummary_->setWordWrap(true);
    changesSummary_->setTextFormat(Qt::RichText);
    changesSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    changes_->setColumnCount(3);
    changes_->setRootIsDecorated(false);
    changes_->setHeaderLabels({tr("What changed"), tr("Before"), tr("After")});
    changes_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    changes_->header()->setStretchLastSection(true);
    source_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    source_->setLineWrapMode(QTextEdit::NoWrap);
    auto* changed = new QWidget(this);
    auto* cv = new QVBoxLayout(changed);
    cv->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Vertical, changed);
    split->addWidget(changes_);
    split->addWidget(source_);
    split->setStretchFactor(1, 2);
    cv->addWidget(split, 1);

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
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* v = new QVBoxLayout(output);
    v->setContentsMargins(0, 0, 0, 0);
    v->addLayout(top);
    v->addWidget(views_, 1);
    views_->addWidget(plot_);
    views_->addWidget(map_);
    plot_->addGraph();
    plot_->graph(0)->setPen(QPen(QColor(214, 39, 40), 1.5));
    plot_->xAxis->setLabel(tr("index"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    map_->colorMap()->setGradient(divergingGradient());
    connect(map_, &HeatMap::updated, this, [this] {
        const double r = mapLargest_ > 0 ? mapLargest_ : 1;
        map_->colorMap()->setDataRange(QCPRange(-r, r));
        map_->plot()->replot();
    });

    tabs_->addTab(changed, tr("What changed"));
    tabs_->addTab(timings_, tr("Timings"));
    tabs_->addTab(output, tr("Output difference"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(changesSummary_);
    layout->addWidget(tabs_, 1);
    connect(buffer_, &QComboBox::currentIndexChanged, this, &RunComparison::showDifference);
    clear();
    PlotTheme::follow(plot_);
}

bool RunComparison::showsHeatMap() const { return views_->currentWidget() == map_; }

void RunComparison::clear()
{
    a_.reset();
    b_.reset();
    changesSummary_->setText(tr("Pick two runs and press Compare."));
    changes_->clear();
    source_->clear();
    source_->hide();
    timings_->setRowCount(0);
    const QSignalBlocker quiet(buffer_);
    buffer_->clear();
    summary_->clear();
    plot_->graph(0)->data()->clear();
    plot_->replot();
    views_->setCurrentWidget(plot_);
}

void RunComparison::compare(const RunHistory::Entry& a, const RunHistory::Entry& b)
{
    a_ = a;
    b_ = b;
    showChanges();
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

void RunComparison::showChanges()
{
    const auto changes = DocumentChanges::between(a_->document, b_->document);
    const bool sourceChanged = DocumentChanges::sourceChanged(a_->document, b_->document);
    changes_->clear();
    for (const DocumentChange& c : changes) {
        auto* item = new QTreeWidgetItem(
            changes_,
            {q(c.what), c.before.empty() ? tr("(none)") : q(c.before), c.after.empty() ? tr("(none)") : q(c.after)});
        item->setToolTip(0, q(c.text()));
    }
    if (sourceChanged)
        new QTreeWidgetItem(changes_,
                            {tr("source"), tr("run %1").arg(a_->number), tr("run %1 (diff below)").arg(b_->number)});
    changes_->setVisible(changes_->topLevelItemCount() > 0);

    // One line above the tabs, seen from all of them: the first few changes by name.
    constexpr std::size_t named = 3;
    QStringList parts;
    for (std::size_t i = 0; i < changes.size() && i < named; ++i)
        parts << q(changes[i].text());
    if (changes.size() > named)
        parts << tr("%1 more settings (What changed)").arg(changes.size() - named);
    if (sourceChanged)
        parts << tr("the source changed (− run %1, + run %2)").arg(a_->number).arg(b_->number);
    else if (!changes.empty())
        parts << tr("the source is the same");
    const QString words = tr("<b>Run %1 → run %2</b>: %3.")
                              .arg(a_->number)
                              .arg(b_->number)
                              .arg(parts.isEmpty() ? tr("nothing changed in the source or the settings")
                                                   : parts.join("; ").toHtmlEscaped());
    changesSummary_->setText(words);
    // The line diff only when there is one to read.
    source_->setVisible(sourceChanged);
    if (sourceChanged)
        source_->setHtml(diffHtml(LineDiff::compare(a_->document.source, b_->document.source), palette()));
    else
        source_->clear();
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
    const BufferResult* x = a_ ? findBuffer(a_->result.get(), name) : nullptr;
    const BufferResult* y = b_ ? findBuffer(b_->result.get(), name) : nullptr;
    if (!x || !y || x->data.count() != y->data.count()) {
        summary_->setText(buffer_->count() ? QString() : tr("The two runs have no output buffer in common."));
        views_->setCurrentWidget(plot_);
        plot_->replot();
        return;
    }
    BufferDifference d = BufferDifference::of(x->data, y->data);
    const double largest = d.differing ? d.values.at(d.largestAt) : 0.0; // signed: which run is larger
    const std::size_t n = x->data.count();
    const QString label = tr("%1: run %2 − run %3").arg(name).arg(b_->number).arg(a_->number);
    if (y->shape.size() >= 2 && y->shape.size() <= 3) {
        mapLargest_ = d.largest;
        views_->setCurrentWidget(map_);
        map_->setBuffer(std::make_shared<const HostBuffer>(std::move(d.values)), y->shape, label);
    } else {
        views_->setCurrentWidget(plot_);
        // At most about 100 000 points drawn; the summary reads every element.
        const std::size_t stride = std::max<std::size_t>(1, n / 100000);
        QVector<double> keys, values;
        for (std::size_t i = 0; i < n; i += stride) {
            keys << double(i);
            values << d.values.at(i);
        }
        plot_->graph(0)->setData(keys, values, true);
        plot_->yAxis->setLabel(label);
        plot_->rescaleAxes();
        if (d.largest == 0)
            plot_->yAxis->setRange(-1, 1);
        plot_->replot();
    }
    QString text;
    if (d.differing == 0)
        text = tr("The outputs are identical (%L1 elements).").arg(n);
    else {
        text = tr("%L1 of %L2 elements differ").arg(d.differing).arg(n);
        if (d.differing > d.notANumber)
            text += tr("; the largest difference is %1 at %2 (run %3: %4, run %5: %6)")
                        .arg(largest, 0, 'g', 6)
                        .arg(placeText(d.largestAt, y->shape))
                        .arg(a_->number)
                        .arg(x->data.at(d.largestAt), 0, 'g', 6)
                        .arg(b_->number)
                        .arg(y->data.at(d.largestAt), 0, 'g', 6);
        if (d.notANumber)
            text += tr("; %L1 are NaN in one run only").arg(d.notANumber);
        text += '.';
    }
    summary_->setText(text);
}

} // namespace kw
