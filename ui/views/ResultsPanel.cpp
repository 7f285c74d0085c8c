#include "views/ResultsPanel.hpp"

#include "views/BarChart.hpp"
#include "views/BufferTableView.hpp"
#include "views/ChecksView.hpp"
#include "views/Exporter.hpp"
#include "views/HeatMap.hpp"
#include "views/HistogramView.hpp"
#include "views/LinePlot.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace kw {

namespace {
QString shapeText(const BufferResult& b)
{
    QStringList dims;
    for (std::size_t d : b.shape)
        dims << QString::number(d);
    if (dims.isEmpty())
        dims << QString::number(b.data.count());
    return dims.join(QStringLiteral(" x "));
}

// Shown as a heat map (3-D one slice at a time) rather than a line.
bool isTwoDimensional(const BufferResult& b) { return b.shape.size() >= 2 && b.shape.size() <= 3; }
} // namespace

ResultsPanel::ResultsPanel(QWidget* parent)
    : QWidget(parent)
    , buffers_(new QComboBox(this))
    , info_(new QLabel(this))
    , exportPlot_(new QPushButton(tr("Export plot..."), this))
    , exportBuffer_(new QPushButton(tr("Export buffer..."), this))
    , tabs_(new QTabWidget(this))
    , plotStack_(new QStackedWidget(this))
    , line_(new LinePlot(this))
    , heat_(new HeatMap(this))
    , bars_(new BarChart(this))
    , histogram_(new HistogramView(this))
    , table_(new BufferTableView(this))
    , checks_(new ChecksView(this))
    , empty_(new QLabel(tr("Run the kernel to see its buffers here."), this))
{
    // Neither the buffer names nor the info text may change the panel's size hints:
    // a new result would then re-lay out the dock and redraw every plot in it.
    buffers_->setMinimumContentsLength(16);
    buffers_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Buffer:"), this));
    top->addWidget(buffers_);
    top->addWidget(info_, 1);
    top->addWidget(exportPlot_);
    top->addWidget(exportBuffer_);

    // The tabs are laid out from the start, with the empty message as the plot's
    // first page: the first result then only fills views, it does not lay out and
    // show a hidden tree (tens of ms while the window waits).
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setEnabled(false);
    plotStack_->addWidget(empty_);
    plotStack_->addWidget(line_);
    plotStack_->addWidget(heat_);
    plotStack_->addWidget(bars_);
    // The plots scroll when the dock is lower than their axes need: the dock then asks
    // for little height and the editor above keeps its lines.
    auto scrolled = [this](QWidget* page) {
        auto* scroll = new QScrollArea(this);
        scroll->setWidget(page);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        return scroll;
    };
    plotPage_ = scrolled(plotStack_);
    histogramPage_ = scrolled(histogram_);
    tabs_->addTab(plotPage_, tr("Plot"));
    tabs_->addTab(histogramPage_, tr("Histogram"));
    tabs_->addTab(table_, tr("Table"));
    tabs_->addTab(checks_, tr("Checks"));
    // The heat map's row (Square cells) goes beside the tabs, shown with the map: under
    // the editor the panel is low, and a row of its own would take a fifth of the image's
    // height. The value under the mouse goes after the buffer's shape above: beside the
    // tabs its words would squeeze them in a narrow column (presentation mode).
    tabs_->setCornerWidget(heat_->controls(), Qt::TopRightCorner);
    heat_->readout()->hide();
    connect(heat_, &HeatMap::pointedAt, this, [this](const QString& element) {
        info_->setText(element.isEmpty() ? bufferInfo_ : tr("%1 · %2").arg(bufferInfo_, element));
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2); // the dock is short on a laptop: its room goes to the views
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(tabs_, 1);
    heat_->plot()->replot();
    line_->plot()->replot();

    connect(buffers_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int i) { showBuffer(i < 0 ? -1 : buffers_->itemData(i).toInt()); });
    connect(tabs_, &QTabWidget::currentChanged, this, &ResultsPanel::updateCurrentTab);
    const auto showHeatMapControls
        = [this] { heat_->controls()->setVisible(tabs_->currentWidget() == plotPage_ && showsHeatMap()); };
    connect(tabs_, &QTabWidget::currentChanged, this, showHeatMapControls);
    connect(plotStack_, &QStackedWidget::currentChanged, this, showHeatMapControls);
    showHeatMapControls();
    fillTimer_.setSingleShot(true);
    fillTimer_.setInterval(0);
    connect(&fillTimer_, &QTimer::timeout, this, &ResultsPanel::updateCurrentTab);
    connect(exportPlot_, &QPushButton::clicked, this, &ResultsPanel::exportPlot);
    connect(exportBuffer_, &QPushButton::clicked, this, &ResultsPanel::exportBuffer);
    connect(checks_, &ChecksView::mismatchActivated, this, [this](const QString& name, qulonglong index) {
        if (!result_)
            return;
        for (int i = 0; i < buffers_->count(); ++i) {
            const int ri = buffers_->itemData(i).toInt();
            if (QString::fromStdString(result_->buffers[std::size_t(ri)].name) == name) {
                buffers_->setCurrentIndex(i);
                tabs_->setCurrentWidget(table_);
                table_->showElement(std::size_t(index));
                return;
            }
        }
    });
    clear();
}

void ResultsPanel::showResult(const RunResult& result) { showResult(std::make_shared<const RunResult>(result)); }

void ResultsPanel::showResult(RunResult&& result) { showResult(std::make_shared<const RunResult>(std::move(result))); }

void ResultsPanel::showResult(std::shared_ptr<const RunResult> result)
{
    result_ = std::move(result);
    shown_.reset(); // until showBuffer picks one of the new result's buffers
    shownIndex_ = -1;
    const QSignalBlocker block(buffers_);
    buffers_->clear();
    // Outputs first: they are what a run is for; inputs stay reachable for comparison.
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < result_->buffers.size(); ++i) {
            const BufferResult& b = result_->buffers[i];
            const bool input = b.direction == Direction::In;
            if (input != (pass == 1))
                continue;
            const QString label = QString::fromStdString(b.name) + (input ? tr(" (in)") : QString());
            buffers_->addItem(label, int(i));
        }
    }
    const bool hasChecks = !result_->checks.empty();
    const int checksTab = tabs_->indexOf(checks_);
    tabs_->setTabVisible(checksTab, hasChecks);
    if (hasChecks) {
        int passed = 0;
        for (const CheckResult& c : result_->checks)
            passed += c.passed ? 1 : 0;
        const bool allPassed = passed == int(result_->checks.size());
        // Words, not a tick glyph: a glyph from a fallback font makes the tab bar a
        // pixel taller, which re-lays out the dock and redraws its plots.
        tabs_->setTabText(
            checksTab,
            tr("Checks %1/%2 %3").arg(passed).arg(result_->checks.size()).arg(allPassed ? tr("passed") : tr("failed")));
        tabs_->tabBar()->setTabTextColor(checksTab, allPassed ? QColor(46, 125, 50) : QColor(198, 40, 40));
    }
    checks_->setChecks(result_->checks);

    const bool any = buffers_->count() > 0;
    setBuffersEnabled(any);
    empty_->setText(any ? QString() : tr("This run has no buffers to show."));
    if (!any)
        plotStack_->setCurrentWidget(empty_);
    exportBuffer_->setEnabled(any);
    exportPlot_->setEnabled(any);
    // A failed check is the news of the run: lead with it.
    const bool anyFailed
        = std::any_of(result_->checks.begin(), result_->checks.end(), [](const CheckResult& c) { return !c.passed; });
    if ((!any && hasChecks) || anyFailed)
        tabs_->setCurrentWidget(checks_);
    else if (tabs_->currentWidget() == checks_)
        tabs_->setCurrentIndex(0);
    showBuffer(any ? buffers_->itemData(0).toInt() : -1);
}

void ResultsPanel::clear()
{
    result_.reset();
    shown_.reset();
    shownIndex_ = -1;
    const QSignalBlocker block(buffers_);
    buffers_->clear();
    bufferInfo_.clear();
    info_->clear();
    info_->setToolTip({});
    line_->clear();
    empty_->setText(tr("Run the kernel to see its buffers here."));
    plotStack_->setCurrentWidget(empty_);
    tabs_->setCurrentWidget(plotPage_);
    tabs_->setTabVisible(tabs_->indexOf(checks_), false);
    setBuffersEnabled(false);
}

void ResultsPanel::setBuffersEnabled(bool on)
{
    buffers_->setEnabled(on);
    exportBuffer_->setEnabled(on);
    exportPlot_->setEnabled(on);
    for (QWidget* w : {histogramPage_, static_cast<QWidget*>(table_)})
        tabs_->setTabEnabled(tabs_->indexOf(w), on);
}

void ResultsPanel::selectBuffer(int index)
{
    const int i = buffers_->findData(index);
    if (i >= 0)
        buffers_->setCurrentIndex(i);
}

int ResultsPanel::currentBuffer() const { return buffers_->currentIndex() < 0 ? -1 : buffers_->currentData().toInt(); }

bool ResultsPanel::showsHeatMap() const { return plotStack_->currentWidget() == heat_; }

bool ResultsPanel::showsBars() const { return plotStack_->currentWidget() == bars_; }

QString ResultsPanel::placeholderText() const
{
    return plotStack_->currentWidget() == empty_ ? empty_->text() : QString();
}

void ResultsPanel::showBuffer(int resultIndex)
{
    if (!result_ || resultIndex < 0 || std::size_t(resultIndex) >= result_->buffers.size())
        return;
    const BufferResult& b = result_->buffers[std::size_t(resultIndex)];
    // Views share ownership of the whole result through the buffer they show.
    std::shared_ptr<const HostBuffer> data(result_, &b.data);
    const QString dtype = QString::fromLatin1(toString(b.data.dtype()));
    // Short, as a declaration reads ("u8 [16 x 32]"): the element under the mouse follows
    // it, and in presentation mode the row has room for few words. The tooltip says it whole.
    bufferInfo_ = tr("%1 [%2]").arg(dtype, shapeText(b));
    info_->setText(bufferInfo_);
    info_->setToolTip(b.shape.size() >= 2
                          ? tr("%1, shape %2 (%3 elements)").arg(dtype, shapeText(b)).arg(b.data.count())
                          : tr("%1, %2 elements").arg(dtype).arg(b.data.count()));
    // The table model only keeps the pointer and the shape: cheap whatever the size.
    table_->setBuffer(data, b.shape);
    shown_ = data;
    shownIndex_ = resultIndex;
    plotStale_ = true;
    histogramStale_ = true;
    if (b.data.count() == 0) {
        // A run that faulted brings no elements back: a plot would keep the axes of the
        // run before.
        empty_->setText(tr("%1 holds no elements: the run brought none back.").arg(QString::fromStdString(b.name)));
        plotStack_->setCurrentWidget(empty_);
        plotStale_ = false;
        return;
    }
    QWidget* view = isTwoDimensional(b) ? static_cast<QWidget*>(heat_)
        : BarChart::suits(b)            ? static_cast<QWidget*>(bars_)
                                        : line_;
    // The view already showing (a run again, as while typing) is filled now, so the
    // window's next paint has the new result: it is drawn once, at the size it has.
    if (plotStack_->currentWidget() == view) {
        updateCurrentTab();
        return;
    }
    // A view switched to is filled in the next pass of the event loop: a plot shown for
    // the first time draws itself at its new size, and drawing it again with the data in
    // the same pass would hold the window for twice as long.
    plotStack_->setCurrentWidget(view);
    fillTimer_.start();
}

void ResultsPanel::updateCurrentTab()
{
    if (!shown_ || !result_)
        return;
    QWidget* current = tabs_->currentWidget();
    if (current == plotPage_) {
        fillPlot();
    } else if (current == histogramPage_ && histogramStale_) {
        histogramStale_ = false;
        histogram_->setBuffer(shown_, buffers_->currentText());
    }
}

void ResultsPanel::fillPlot()
{
    if (!plotStale_ || !shown_ || !result_)
        return;
    plotStale_ = false;
    const BufferResult& b = result_->buffers[std::size_t(shownIndex_)];
    if (isTwoDimensional(b))
        heat_->setBuffer(shown_, b.shape, QString::fromStdString(b.name));
    else if (BarChart::suits(b))
        bars_->setBuffer(shown_, QString::fromStdString(b.name));
    else
        line_->setBuffer(shown_, QString::fromStdString(b.name));
}

void ResultsPanel::exportPlot()
{
    QCustomPlot* plot = nullptr;
    if (tabs_->currentWidget() == histogramPage_)
        plot = histogram_->plot();
    else if (tabs_->currentWidget() == checks_)
        plot = checks_->errorPlot();
    else {
        fillPlot(); // the table tab may be current, with the plot not yet drawn
        plot = showsHeatMap() ? heat_->plot() : plotStack_->currentWidget() == bars_ ? bars_->plot() : line_->plot();
    }
    Exporter::savePlotInteractive(this, plot, buffers_->currentText().section(' ', 0, 0));
}

void ResultsPanel::exportBuffer()
{
    const int i = currentBuffer();
    if (!result_ || i < 0)
        return;
    const BufferResult& b = result_->buffers[std::size_t(i)];
    Exporter::saveBufferInteractive(this, b.data, b.shape, QString::fromStdString(b.name));
}

} // namespace kw
