#include "views/TimingsPanel.hpp"

#include "PlotTheme.hpp"
#include "run/TimingDetailText.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kw {

namespace {

// " (cached)", " (precompiled headers used)"... beside the compile time.
QString howCompiledNote(const CompileResult& r)
{
    const std::string how = howCompiled(r);
    return how.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(how));
}
QString formatMs(double ms)
{
    if (ms < 1.0)
        return QStringLiteral("%1 \u00b5s").arg(ms * 1000.0, 0, 'f', ms < 0.01 ? 2 : 1);
    if (ms < 1000.0)
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10 ? 3 : 2);
    return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 2);
}

QCPGraph* lineGraph(QCustomPlot* plot, const QString& name, const QPen& pen)
{
    auto* g = plot->addGraph();
    g->setName(name);
    g->setPen(pen);
    return g;
}
// A legend below its plot, in as many columns as fit the plot's width; returns the
// height of its rows.
int wrapLegend(QCustomPlot* plot)
{
    QCPLegend* legend = plot->legend;
    // The grid's cells, some of them empty once the items wrapped.
    int n = 0, widest = 1, height = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            ++n;
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            height = std::max(height, item->minimumOuterSizeHint().height());
        }
    const int margins = legend->margins().left() + legend->margins().right() + 8;
    plot->setMinimumWidth(widest + margins); // one column of whole entries at the least
    const int columns = std::clamp((plot->width() - margins) / (widest + legend->columnSpacing()), 1, std::max(n, 1));
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // lays the items out again
    const int rows = n ? (n + columns - 1) / columns : 0;
    return rows * height;
}

// A legend in a row of its own under the plot, where it cannot cover or lose the data.
void legendBelow(QCustomPlot* plot)
{
    plot->legend->setVisible(true);
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
}

// A plot with nothing to show shows no axes either: their ranges would be the last run's.
void showAxes(QCustomPlot* plot, bool on)
{
    plot->xAxis->setVisible(on);
    plot->yAxis->setVisible(on);
}

} // namespace

TimingsPanel::TimingsPanel(QWidget* parent)
    : QWidget(parent)
    , summary_(new QLabel(this))
    , repeats_(new QCustomPlot(this))
    , breakdown_(new QCustomPlot(this))
    , bandwidth_(new QLabel(this))
    , bandwidthBar_(new QProgressBar(this))
{
    summary_->setWordWrap(true);
    bandwidth_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bandwidth_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bandwidthBar_->setRange(0, 1000);
    bandwidthBar_->setTextVisible(true);

    repeats_->xAxis->setLabel(tr("repeat"));
    repeats_->yAxis->setLabel(tr("kernel time (ms)"));
    legendBelow(repeats_);
    repeats_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    repeats_->xAxis->setTicker(ticker);

    breakdown_->setMinimumHeight(90);
    breakdown_->setMaximumHeight(170);
    breakdown_->xAxis->setLabel(tr("ms"));
    breakdown_->yAxis->setTicks(false);
    breakdown_->yAxis->setTickLabels(false);
    breakdown_->yAxis->grid()->setVisible(false);
    legendBelow(breakdown_);
    breakdown_->setMaximumHeight(QWIDGETSIZE_MAX);

    auto title = [this](const QString& text) {
        auto* l = new QLabel(QStringLiteral("<b>%1</b>").arg(text), this);
        return l;
    };
    // The repeats beside the breakdown, not above it: the dock stays short enough
    // to leave the editor its height on a 768-pixel screen.
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    auto* row = new QHBoxLayout;
    row->addWidget(repeats_, 3);
    auto* side = new QVBoxLayout;
    side->addWidget(title(tr("Where the time of the run went")));
    side->addWidget(breakdown_, 1);
    side->addWidget(title(tr("Memory bandwidth")));
    side->addWidget(bandwidth_);
    side->addWidget(bandwidthBar_);
    row->addLayout(side, 2);
    layout->addLayout(row, 1);
    clear();
    fitLegend();
    PlotTheme::follow(repeats_);
    PlotTheme::follow(breakdown_);
}

void TimingsPanel::clear()
{
    stats_ = {};
    summary_->setText(tr("Run the kernel to see its timings."));
    repeats_->clearGraphs();
    showAxes(repeats_, false);
    repeats_->replot();
    breakdown_->clearPlottables();
    showAxes(breakdown_, false);
    breakdown_->replot();
    bandwidth_->clear();
    bandwidthBar_->hide();
}

namespace {

// How the times were taken (method, interval of the median, warm-up, L2, SM clock), as
// kwb-run's summary says it.
QString howTimed(const RunTimings& t)
{
    const std::string how = TimingDetailText::describe(t);
    return how.empty() ? QString() : QStringLiteral("<br>") + QString::fromStdString(how).toHtmlEscaped();
}

} // namespace

void TimingsPanel::showResult(const RunResult& r)
{
    if (r.fault) {
        clear();
        summary_->setText(tr("The run faulted: no timings."));
        return;
    }
    const RunTimings& t = r.timings;
    stats_ = TimingStats::compute(t.kernelMs);
    simulated_ = r.device.id == "sim";
    const double median = stats_.count ? stats_.median : t.medianMs;
    if (!r.steps.empty()) {
        // A document of steps runs once: its one time is every launch together, and the
        // steps' own times are in the Steps list.
        int launches = 0;
        for (const StepResult& s : r.steps)
            if (s.kind == "launch")
                launches += s.runs;
        stats_ = {};
        summary_->setText(
            (simulated_ ? tr("<b>Simulator time of every launch together (the CPU running the simulation, not a "
                             "GPU measurement): %1</b>")
                        : tr("<b>Kernel time of every launch together: %1</b>"))
                .arg(formatMs(median))
            + (launches == 1 ? tr(" &nbsp; 1 launch on %1") : tr(" &nbsp; %2 launches on %1"))
                  .arg(QString::fromStdString(r.device.name.empty() ? r.device.id : r.device.name).toHtmlEscaped())
                  .arg(launches)
            + tr("; each step's runs, time and share are in the Steps list."));
        plotRepeats({});
    } else if (stats_.count) {
        const QString head = simulated_ ? tr("<b>Simulator time (the CPU running the simulation, not a GPU "
                                             "measurement): median %1</b>")
                                        : tr("<b>Kernel time: median %1</b>");
        summary_->setText(
            (head
             + tr(" &nbsp; min %2 &nbsp; max %3 &nbsp; mean %4 &nbsp; IQR %5 (%6 \u2013 %7) &nbsp; "
                  "over %8 repeats on %9"))
                .arg(formatMs(stats_.median), formatMs(stats_.min), formatMs(stats_.max), formatMs(stats_.mean),
                     formatMs(stats_.iqr()), formatMs(stats_.q1), formatMs(stats_.q3))
                .arg(stats_.count)
                .arg(QString::fromStdString(r.device.name.empty() ? r.device.id : r.device.name).toHtmlEscaped())
            + howTimed(t));
    } else {
        summary_->setText(tr("No timed repeats in this run."));
    }
    if (r.steps.empty())
        plotRepeats(t.kernelMs);
    plotBreakdown(r);

    const double gbps = t.gbps > 0 ? t.gbps : median > 0 ? double(t.bytesMoved) / (median * 1e-3) / 1e9 : 0.0;
    const double peak = r.device.memoryBandwidthGBs;
    const QString moved = QLocale().formattedDataSize(qint64(t.bytesMoved), 1, QLocale::DataSizeSIFormat);
    if (simulated_) {
        // Bytes over the simulator's time says how fast the CPU simulates, nothing of a GPU.
        bandwidth_->setText(tr("No bandwidth figure on the simulator: its times are those of the CPU "
                               "simulating the kernel. Run on a GPU to measure memory bandwidth."));
        bandwidthBar_->hide();
    } else if (gbps <= 0) {
        bandwidth_->setText(tr("No bandwidth figure: the run moved no buffer data or was not timed."));
        bandwidthBar_->hide();
    } else if (peak > 0) {
        bandwidth_->setText(tr("Achieved <b>%1 GB/s</b> (%2 per launch / median kernel time) "
                               "against a peak of %3 GB/s for %4.")
                                .arg(gbps, 0, 'f', 1)
                                .arg(moved)
                                .arg(peak, 0, 'f', 0)
                                .arg(QString::fromStdString(r.device.name).toHtmlEscaped()));
        const double fraction = std::clamp(gbps / peak, 0.0, 1.0);
        bandwidthBar_->setValue(int(std::lround(fraction * 1000)));
        bandwidthBar_->setFormat(tr("%1 % of peak").arg(100.0 * gbps / peak, 0, 'f', 1));
        bandwidthBar_->show();
    } else {
        // No peak to compare with (the CPU simulator, or an unknown device).
        bandwidth_->setText(tr("Achieved <b>%1 GB/s</b> (%2 per launch / median kernel time).")
                                .arg(gbps, 0, 'f', gbps < 10 ? 3 : 1)
                                .arg(moved));
        bandwidthBar_->hide();
    }
}

void TimingsPanel::plotRepeats(const std::vector<double>& ms)
{
    repeats_->clearGraphs();
    showAxes(repeats_, !ms.empty());
    if (ms.empty()) {
        repeats_->replot();
        return;
    }
    const double x0 = 0.5, x1 = double(ms.size()) + 0.5;
    // Short kernels read better in microseconds than as 0.021 ms.
    const bool micro = stats_.median < 1.0;
    const double k = micro ? 1000.0 : 1.0;
    if (simulated_)
        repeats_->yAxis->setLabel(micro ? tr("simulator time (\u00b5s, CPU)") : tr("simulator time (ms, CPU)"));
    else
        repeats_->yAxis->setLabel(micro ? tr("kernel time (\u00b5s)") : tr("kernel time (ms)"));
    auto* q3 = lineGraph(repeats_, tr("IQR"), QPen(QColor(31, 119, 180, 60)));
    auto* q1 = lineGraph(repeats_, QString(), QPen(QColor(31, 119, 180, 60)));
    q3->setData({x0, x1}, {k * stats_.q3, k * stats_.q3});
    q1->setData({x0, x1}, {k * stats_.q1, k * stats_.q1});
    q3->setBrush(QColor(31, 119, 180, 45));
    q3->setChannelFillGraph(q1);
    q1->removeFromLegend();

    QPen dashed(QColor(120, 120, 120), 1, Qt::DashLine);
    auto* mn = lineGraph(repeats_, tr("min / max"), dashed);
    auto* mx = lineGraph(repeats_, QString(), dashed);
    mn->setData({x0, x1}, {k * stats_.min, k * stats_.min});
    mx->setData({x0, x1}, {k * stats_.max, k * stats_.max});
    mx->removeFromLegend();

    auto* med = lineGraph(repeats_, tr("median %1").arg(formatMs(stats_.median)), QPen(QColor(214, 39, 40), 2));
    med->setData({x0, x1}, {k * stats_.median, k * stats_.median});

    auto* pts = lineGraph(repeats_, tr("each repeat"), QPen(QColor(31, 119, 180), 1));
    pts->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(31, 119, 180), Qt::white, 6));
    QVector<double> xs, ys;
    for (std::size_t i = 0; i < ms.size(); ++i) {
        xs << double(i + 1);
        ys << k * ms[i];
    }
    pts->setData(xs, ys, true);

    const double span = stats_.max - stats_.min;
    const double pad = span > 0 ? span * 0.15 : std::max(1e-6, std::abs(stats_.median) * 0.05);
    repeats_->xAxis->setRange(x0, x1);
    repeats_->yAxis->setRange(k * (stats_.min - pad), k * (stats_.max + pad));
    fitLegend();
}

void TimingsPanel::plotBreakdown(const RunResult& r)
{
    breakdown_->clearPlottables();
    showAxes(breakdown_, true);
    const RunTimings& t = r.timings;
    const double kernel = stats_.count ? stats_.median : t.medianMs;
    struct Phase {
        QString name;
        double ms;
        QColor colour;
    };
    const Phase phases[] = {
        {tr("compile%1").arg(howCompiledNote(r.compile)), t.compileMs, QColor(148, 103, 189)},
        {tr("module load"), t.moduleLoadMs, QColor(140, 86, 75)},
        {tr("H2D"), t.h2dMs, QColor(255, 127, 14)},
        {simulated_ ? tr("simulation (median)") : tr("kernel (median)"), kernel, QColor(44, 160, 44)},
        {tr("D2H"), t.d2hMs, QColor(31, 119, 180)},
    };
    QCPBars* below = nullptr;
    double total = 0;
    for (const Phase& p : phases) {
        // The simulator's "copies" are host memcpy: no transfer to measure.
        if (simulated_ && (p.name == tr("H2D") || p.name == tr("D2H")))
            continue;
        auto* bars = new QCPBars(breakdown_->yAxis, breakdown_->xAxis);
        bars->setName(QStringLiteral("%1 %2").arg(p.name, formatMs(p.ms)));
        bars->setPen(QPen(p.colour.darker(130)));
        bars->setBrush(p.colour);
        bars->setWidth(0.6);
        bars->addData(1.0, std::max(0.0, p.ms));
        if (below)
            bars->moveAbove(below);
        below = bars;
        total += std::max(0.0, p.ms);
    }
    breakdown_->yAxis->setRange(0.4, 1.6);
    breakdown_->xAxis->setRange(0, total > 0 ? total * 1.02 : 1.0);
    breakdown_->xAxis->setLabel(tr("ms (total %1)").arg(formatMs(total)));
    fitLegend();
}

void TimingsPanel::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fitLegend();
}

void TimingsPanel::fitLegend()
{
    wrapLegend(repeats_);
    repeats_->replot();
    // The bar and its axis, and every row of the legend below them.
    breakdown_->setFixedHeight(std::max(90, 110 + wrapLegend(breakdown_)));
    breakdown_->replot();
}

} // namespace kw
