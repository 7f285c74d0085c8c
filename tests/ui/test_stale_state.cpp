// Nothing of an earlier document or run stays on screen as if it were current: the heat
// map's readout of another buffer, the timing plots' axes after a run that faulted, the
// registers of a document never compiled, and the runner picker's list of devices once
// the runner answered.
#include "CodeEditor.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "RunnerPicker.hpp"
#include "WorkbenchDocument.hpp"
#include "data/HostBuffer.hpp"
#include "qstring_printer.hpp"
#include "test_window_options.hpp"
#include "views/HeatMap.hpp"
#include "views/ResultsPanel.hpp"
#include "views/TimingsPanel.hpp"
#include "views_test_app.hpp"

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <qcustomplot.h>

using namespace kw;

namespace {

std::shared_ptr<const HostBuffer> grid(std::size_t rows, std::size_t cols, float value)
{
    auto b = std::make_shared<HostBuffer>(DType::F32, rows * cols);
    for (std::size_t i = 0; i < rows * cols; ++i)
        b->set(i, value);
    return b;
}

std::optional<RunResult> runAndWait(MainWindow& window)
{
    QSignalSpy ran(&window, &MainWindow::runCompleted);
    window.runAction()->trigger();
    if (!ran.wait(120000))
        return std::nullopt;
    QTest::qWait(50); // the timings are drawn in the next pass of the event loop
    return ran.at(0).at(0).value<RunResult>();
}

} // namespace

TEST(StaleState, TheHeatMapReadoutForgetsTheBufferItDescribed)
{
    test::app();
    HeatMap map;
    map.resize(500, 400);
    map.show();
    map.setBuffer(grid(8, 8, 2.5f), {8, 8}, "a");
    ASSERT_TRUE(QTest::qWaitFor([&] { return map.isReady(); }, 5000));
    QCustomPlot* plot = map.plot();
    const QPoint centre(int(plot->xAxis->coordToPixel(3)), int(plot->yAxis->coordToPixel(3)));
    QMouseEvent move(QEvent::MouseMove, centre, plot->mapToGlobal(centre), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    EXPECT_TRUE(map.readout()->text().contains("2.5")) << map.readout()->text();

    map.setBuffer(grid(4, 4, 7.0f), {4, 4}, "b");
    EXPECT_EQ(map.readout()->text(), HeatMap::pointPrompt()) << "the value under the mouse was a's";
}

TEST(StaleState, AFaultLeavesNoTimingAxesOfTheRunBefore)
{
    test::app();
    MainWindow window(test::windowOptions());
    window.resize(1366, 768);
    window.show();
    QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
    ASSERT_TRUE(devices.count() > 0 || devices.wait(20000));
    ASSERT_TRUE(window.openDocument(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb"));
    window.launchPanel()->setCurrentDevice("sim");
    const auto good = runAndWait(window);
    ASSERT_TRUE(good && good->ok);
    QCustomPlot* repeats = window.timingsPanel()->repeatPlot();
    EXPECT_GT(repeats->graphCount(), 0);
    EXPECT_TRUE(repeats->yAxis->visible());

    // Far out of bounds: the simulator faults.
    window.editor()->setText(window.editor()->text().replace("c[idx] =", "c[idx + 100000000] ="));
    ASSERT_TRUE(window.editor()->text().contains("100000000"));
    const auto bad = runAndWait(window);
    ASSERT_TRUE(bad);
    ASSERT_TRUE(bad->fault) << "the run did not fault";
    EXPECT_EQ(repeats->graphCount(), 0);
    EXPECT_FALSE(repeats->yAxis->visible()) << "the axes were the run before's";
    EXPECT_FALSE(repeats->xAxis->visible());
    EXPECT_FALSE(window.timingsPanel()->breakdownPlot()->yAxis->visible());
    EXPECT_EQ(window.timingsPanel()->summary()->text(), "The run faulted: no timings.");
    // The faulted run brought no elements of c back: no plot keeps the run before's axes.
    EXPECT_EQ(window.resultsPanel()->placeholderText(), "c holds no elements: the run brought none back.");
    if (qEnvironmentVariableIsSet("KW_SHOT_DIR"))
        window.grab().save(qEnvironmentVariable("KW_SHOT_DIR") + "/fault-timings.png");
}

TEST(StaleState, ADocumentNeverCompiledShowsNoRegistersOfTheOneBefore)
{
    test::app();
    MainWindow window(test::windowOptions());
    window.resize(1366, 768);
    window.show();
    ASSERT_TRUE(window.openDocument(QString(KW_SAMPLES_DIR) + "/matmul.kwb"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.launchPanel()->resourcesText().contains("Registers:"); }, 60000))
        << window.launchPanel()->resourcesText();

    // A copy outside the samples is not trusted: it is never compiled until trusted.
    QTemporaryDir dir;
    const QString copy = dir.filePath("add_vectors_small.kwb");
    ASSERT_TRUE(QFile::copy(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", copy));
    ASSERT_TRUE(window.openDocument(copy));
    ASSERT_NE(window.document()->document().trust, Trust::Trusted);
    QTest::qWait(200);
    EXPECT_FALSE(window.launchPanel()->resourcesText().contains("Registers:")) << window.launchPanel()->resourcesText();
    EXPECT_TRUE(window.launchPanel()->resourcesText().contains("Resources appear after a successful compile"))
        << window.launchPanel()->resourcesText();
}

TEST(StaleState, TheRunnerPickerNamesTheDevicesOnceConnected)
{
    test::app();
    MainWindow window(test::windowOptions());
    window.show();
    QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
    ASSERT_TRUE(devices.count() > 0 || devices.wait(20000));
    QTest::qWait(50);
    RunnerPicker* picker = window.findChild<RunnerPicker*>();
    ASSERT_NE(picker, nullptr);
    EXPECT_TRUE(picker->statusText().startsWith("connected: ")) << picker->statusText();
    EXPECT_TRUE(picker->statusText().contains("sim")) << picker->statusText();
    // However narrow the row, what shows of it starts with what it is, the rest cut with an ellipsis.
    window.resize(900, 700);
    QTest::qWait(50);
    const QString shown = picker->shownStatusText();
    EXPECT_TRUE(shown.startsWith("connected")) << shown;
    auto* label = picker->findChild<QLabel*>("runnerStatus");
    ASSERT_NE(label, nullptr);
    EXPECT_LE(label->fontMetrics().horizontalAdvance(shown), label->width()) << "the status is clipped, not elided";
}
