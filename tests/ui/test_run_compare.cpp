// The run history's compare view and its memory between sessions: what changed is
// named, the source diff is shown only when the source changed, a 2-D output's
// difference is a heat map (1-D: a plot) with the largest difference and its place,
// and a saved document's runs are there again after closing and reopening it.
#include "ErrorBanner.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunComparison.hpp"
#include "RunHistory.hpp"
#include "RunHistoryPanel.hpp"
#include "RunHistoryStore.hpp"
#include "RunnerClient.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"
#include "views/HeatMap.hpp"

#include "doc/DocumentReader.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <gtest/gtest.h>

using namespace kw;

namespace {

Document mandelbrot() { return DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/mandelbrot.kwb"); }

// A run of a 3×4 (rows × columns) output whose element k is base + k, and a 1-D one.
std::shared_ptr<const RunResult> result(double base, std::size_t changedAt = SIZE_MAX, double by = 0)
{
    auto r = std::make_shared<RunResult>();
    r->device.id = "sim";
    r->device.name = "CPU simulator";
    r->timings.medianMs = 2.0 + base;
    BufferResult image{"iterations", Direction::Out, {3, 4}, HostBuffer(DType::I32, 12)};
    BufferResult line{"line", Direction::Out, {5}, HostBuffer(DType::F32, 5)};
    for (std::size_t k = 0; k < 12; ++k)
        image.data.set(k, base + double(k) + (k == changedAt ? by : 0));
    for (std::size_t k = 0; k < 5; ++k)
        line.data.set(k, double(k) + (k == 3 ? base : 0));
    r->buffers = {image, line};
    return r;
}

RunHistory::Entry entry(int number, const Document& d, std::shared_ptr<const RunResult> r)
{
    return {number, QDateTime::currentDateTime(), d, "CPU simulator", std::move(r)};
}

QStringList rows(QTreeWidget* tree)
{
    QStringList out;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        out << tree->topLevelItem(i)->text(0) + ": " + tree->topLevelItem(i)->text(1) + " → "
                + tree->topLevelItem(i)->text(2);
    return out;
}

} // namespace

TEST(RunCompare, NamesWhatChangedAndHidesTheSourceDiffWhenTheSourceIsTheSame)
{
    const Document a = mandelbrot();
    Document b = a;
    for (auto& [name, value] : b.variables)
        if (name == "max_iter")
            value = "32";
    b.launch.block = {"32", "8", "1"};
    RunComparison c;
    c.resize(900, 500);
    c.compare(entry(1, a, result(0)), entry(2, b, result(0, 6, -5)));
    EXPECT_EQ(rows(c.changesList()), (QStringList{"max_iter: 128 → 32", "block: 16, 16 → 32, 8"}));
    EXPECT_TRUE(c.sourceView()->isHidden()) << "no diff to read when the source did not change";
    // Above the tabs, by name.
    EXPECT_TRUE(
        c.changesSummary()->text().contains("max_iter: 128 → 32; block: 16, 16 → 32, 8; the source is the same."))
        << c.changesSummary()->text().toStdString();
}

TEST(RunCompare, ShowsALineDiffWhenTheSourceChanged)
{
    const Document a = mandelbrot();
    Document b = a;
    b.source.replace(b.source.find("++it;"), 5, "it += 2;");
    RunComparison c;
    c.compare(entry(1, a, result(0)), entry(2, b, result(0)));
    ASSERT_FALSE(c.sourceView()->isHidden());
    const QString diff = c.sourceView()->toPlainText();
    EXPECT_TRUE(diff.contains("-         ++it;")) << diff.toStdString();
    EXPECT_TRUE(diff.contains("+         it += 2;")) << diff.toStdString();
    // A diff, not two texts: the unchanged lines appear once.
    EXPECT_EQ(diff.count("__global__ void mandelbrot"), 1);
    EXPECT_EQ(rows(c.changesList()), (QStringList{"source: run 1 → run 2 (diff below)"}));
}

TEST(RunCompare, ATwoDimensionalDifferenceIsAHeatMapWithItsLargestDifferenceAndPlace)
{
    const Document d = mandelbrot();
    RunComparison c;
    c.resize(900, 500);
    // Element 6 is row 1, column 2 of the 3×4 image: 6 in run 1, 1 in run 2.
    c.compare(entry(1, d, result(0)), entry(2, d, result(0, 6, -5)));
    ASSERT_EQ(c.bufferSelector()->currentText(), "iterations");
    EXPECT_TRUE(c.showsHeatMap());
    HeatMap* map = c.differenceMap();
    ASSERT_TRUE(map->isReady() || QSignalSpy(map, &HeatMap::updated).wait(5000));
    QCPColorMapData* cells = map->colorMap()->data();
    ASSERT_EQ(cells->keySize(), 4);
    ASSERT_EQ(cells->valueSize(), 3);
    double sum = 0, lowest = 0;
    for (int x = 0; x < 4; ++x)
        for (int y = 0; y < 3; ++y) {
            sum += cells->cell(x, y);
            lowest = std::min(lowest, cells->cell(x, y));
        }
    EXPECT_DOUBLE_EQ(sum, -5.0) << "the map holds the difference, not either run's values";
    EXPECT_DOUBLE_EQ(lowest, -5.0);
    const QString summary = c.differenceSummary()->text();
    EXPECT_TRUE(summary.contains("1 of 12 elements differ")) << summary.toStdString();
    EXPECT_TRUE(summary.contains("largest difference is -5 at row 1, column 2 (run 1: 6, run 2: 1)"))
        << summary.toStdString();
    // The scale is centred on zero, so "no change" has one colour.
    EXPECT_DOUBLE_EQ(map->colorMap()->dataRange().lower, -5.0);
    EXPECT_DOUBLE_EQ(map->colorMap()->dataRange().upper, 5.0);
}

TEST(RunCompare, AOneDimensionalDifferenceIsAPlot)
{
    const Document d = mandelbrot();
    RunComparison c;
    c.compare(entry(1, d, result(0)), entry(2, d, result(2.5)));
    c.bufferSelector()->setCurrentText("line");
    EXPECT_FALSE(c.showsHeatMap());
    ASSERT_EQ(c.differencePlot()->graph(0)->dataCount(), 5);
    EXPECT_DOUBLE_EQ(c.differencePlot()->graph(0)->data()->at(3)->value, 2.5);
    EXPECT_DOUBLE_EQ(c.differencePlot()->graph(0)->data()->at(2)->value, 0.0);
    EXPECT_TRUE(c.differenceSummary()->text().contains("largest difference is 2.5 at index 3"))
        << c.differenceSummary()->text().toStdString();
}

TEST(RunHistoryStore, KeepsADocumentsRunsWithTheirOutputsAndContinuesTheNumbers)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    auto store = std::make_shared<RunHistoryStore>(dir.filePath("store"));
    const QString doc = dir.filePath("mine.kwb");
    const Document d = mandelbrot();
    {
        RunHistory history(store);
        history.open(doc);
        history.add(d, "CPU simulator", result(0), doc);
        history.add(d, "CPU simulator", result(1, 3, 7), doc);
    }
    RunHistory again(store);
    again.open(doc);
    ASSERT_EQ(again.entries().size(), 2u);
    const RunHistory::Entry& second = again.entries()[1];
    EXPECT_EQ(second.number, 2);
    EXPECT_EQ(second.device, "CPU simulator");
    EXPECT_EQ(second.document.source, d.source);
    EXPECT_EQ(second.document.variables, d.variables);
    ASSERT_TRUE(second.result);
    EXPECT_DOUBLE_EQ(second.result->timings.medianMs, 3.0);
    ASSERT_EQ(second.result->buffers.size(), 2u);
    const BufferResult& image = second.result->buffers[0];
    EXPECT_EQ(image.name, "iterations");
    EXPECT_EQ(image.shape, (std::vector<std::size_t>{3, 4}));
    EXPECT_EQ(image.data.dtype(), DType::I32);
    EXPECT_DOUBLE_EQ(image.data.at(3), 1 + 3 + 7);
    again.add(d, "CPU simulator", result(2), doc);
    EXPECT_EQ(again.entries().back().number, 3);
    // Another document has its own runs, none yet.
    RunHistory other(store);
    other.open(dir.filePath("other.kwb"));
    EXPECT_TRUE(other.entries().empty());
}

TEST(RunHistoryStore, StaysWithinItsBoundsOldestOutputsFirst)
{
    QTemporaryDir dir;
    auto store = std::make_shared<RunHistoryStore>(dir.filePath("store"));
    const QString doc = dir.filePath("big.kwb");
    const Document d = mandelbrot();
    // Each run: one output of a third of the budget and a bit more, so two fit.
    const std::size_t count = std::size_t(RunHistoryStore::bufferBudgetBytes / 3 / 4 + 1024);
    RunHistory history(store);
    history.open(doc);
    for (int k = 0; k < 3; ++k) {
        auto r = std::make_shared<RunResult>();
        r->buffers = {BufferResult{"out", Direction::Out, {count}, HostBuffer(DType::F32, count)}};
        history.add(d, "sim", r, doc);
    }
    store->waitForSaves(); // written on the store's thread
    qint64 bytes = 0;
    for (const QFileInfo& f : QDir(store->folderFor(doc)).entryInfoList(QDir::Files))
        bytes += f.size();
    EXPECT_LE(bytes, RunHistoryStore::bufferBudgetBytes + (1 << 20));
    RunHistory again(store);
    again.open(doc);
    ASSERT_EQ(again.entries().size(), 3u) << "every run is listed";
    EXPECT_TRUE(again.entries()[0].result->buffers.empty()) << "the oldest run's output is the one left out";
    EXPECT_EQ(again.entries()[2].result->buffers.size(), 1u);
    // No more runs than the history holds.
    for (std::size_t k = 0; k < RunHistory::capacity + 2; ++k)
        history.add(d, "sim", std::make_shared<RunResult>(), doc);
    RunHistory last(store);
    last.open(doc);
    EXPECT_EQ(last.entries().size(), RunHistory::capacity);
}

// The window: run a saved document, close the window, open it again: the run is listed
// and can be compared with a new one.
TEST(RunHistoryWindow, ADocumentsRunsAreThereAfterClosingAndReopeningIt)
{
    test::TestLocations locations("run-compare");
    ASSERT_TRUE(locations.ok());
    QTemporaryDir dir;
    const QString doc = dir.filePath("saxpy.kwb");
    ASSERT_TRUE(QFile::copy(QString(KW_SAMPLES_DIR) + "/saxpy.kwb", doc));
    auto runOnce = [](MainWindow& w) {
        QSignalSpy done(&w, &MainWindow::runCompleted);
        QSignalSpy failed(w.runner(), &RunnerClient::jobFailed);
        w.run();
        const bool ok = done.wait(60000);
        if (!ok)
            ADD_FAILURE() << "no result: "
                          << (failed.isEmpty() ? std::string("no failure reported")
                                               : failed.at(0).at(1).toString().toStdString())
                          << "; banner: " << w.banner()->text().toStdString();
        return ok;
    };
    auto openWindow = [&] {
        auto w = std::make_unique<MainWindow>(test::windowOptions());
        QSignalSpy devices(w->runner(), &RunnerClient::devicesChanged);
        EXPECT_TRUE(devices.count() > 0 || devices.wait(20000));
        EXPECT_TRUE(w->openDocument(doc));
        w->trustCurrentDocument(); // a copy outside the samples runs once trusted (remembered by its bytes)
        w->launchPanel()->setCurrentDevice("sim");
        return w;
    };
    {
        auto w = openWindow();
        ASSERT_TRUE(runOnce(*w));
        ASSERT_EQ(w->runHistory()->entries().size(), 1u);
    }
    auto w = openWindow();
    ASSERT_EQ(w->runHistory()->entries().size(), 1u) << "the run of the closed window is kept";
    EXPECT_EQ(w->runHistoryPanel()->list()->rowCount(), 1);
    ASSERT_TRUE(runOnce(*w));
    ASSERT_EQ(w->runHistory()->entries().size(), 2u);
    EXPECT_EQ(w->runHistory()->entries().back().number, 2);
    ASSERT_TRUE(w->runHistoryPanel()->compareButton()->isEnabled());
    w->runHistoryPanel()->compareButton()->click();
    RunComparison* c = w->runHistoryPanel()->comparison();
    EXPECT_TRUE(c->changesSummary()->text().contains("nothing changed")) << c->changesSummary()->text().toStdString();
    EXPECT_TRUE(c->differenceSummary()->text().contains("identical")) << c->differenceSummary()->text().toStdString();
    // File > New is another document: none of these runs.
    w->newDocument();
    EXPECT_TRUE(w->runHistory()->entries().empty());
}
