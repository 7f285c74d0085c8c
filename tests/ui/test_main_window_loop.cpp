// The workbench's whole loop through a real `kwb-run serve` on the simulator, as a
// user drives it: open a sample, compile, run, and find the results in the panels
// (buffers, checks, timings, printf); a compile error lands in the Problems panel
// and the editor, and the next fixed run works again.
#include "CodeEditor.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "ProblemsPanel.hpp"
#include "RunnerClient.hpp"
#include "test_window_options.hpp"
#include "views/BufferTableModel.hpp"
#include "views/BufferTableView.hpp"
#include "views/ChecksView.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PrintfTableModel.hpp"
#include "views/ResultsPanel.hpp"
#include "views/TimingsPanel.hpp"

#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <gtest/gtest.h>

using namespace kw;

namespace {

QString sample(const char* name) { return QString(KW_SAMPLES_DIR) + "/" + name; }

struct Window {
    MainWindow window{test::windowOptions()};
    bool ready = false;
    Window()
    {
        window.resize(1366, 768);
        window.show();
        QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
        ready = devices.count() > 0 || devices.wait(20000);
    }
    bool open(const char* name)
    {
        if (!window.openDocument(sample(name)))
            return false;
        window.launchPanel()->setCurrentDevice("sim");
        return window.launchPanel()->currentDevice() == "sim";
    }
    RunResult run()
    {
        QSignalSpy ran(&window, &MainWindow::runCompleted);
        window.run();
        if (!ran.wait(120000))
            return {};
        const RunResult r = ran.at(0).at(0).value<RunResult>();
        auto* results = window.findChild<ResultsPanel*>();
        EXPECT_TRUE(
            QTest::qWaitFor([&] { return results && !results->fillPending(); }, 5000)); // views fill on the next pass
        return r;
    }
};

} // namespace

TEST(MainWindowLoop, CompileRunAndTheResultsAreShown)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.open("add_vectors_small.kwb"));

    QSignalSpy compiled(&w.window, &MainWindow::compileCompleted);
    w.window.compile();
    ASSERT_TRUE(compiled.wait(60000));
    const CompileResult c = compiled.at(0).at(0).value<CompileResult>();
    EXPECT_TRUE(c.ok) << c.log;
    ASSERT_FALSE(c.kernels.empty());
    EXPECT_EQ(c.kernels[0].name, "add_vectors");

    const RunResult r = w.run();
    ASSERT_TRUE(r.ok) << (r.fault ? r.fault->message : "no result, or a failed check");
    EXPECT_EQ(r.device.id, "sim");

    // Results panel: the output c = a + b = 5 7 9, selectable by name.
    auto* results = w.window.findChild<ResultsPanel*>();
    ASSERT_NE(results, nullptr);
    ASSERT_TRUE(results->result());
    EXPECT_EQ(results->result()->buffers.size(), 3u);
    ASSERT_GE(results->bufferSelector()->count(), 1);
    const int cIndex = results->bufferSelector()->findText("c", Qt::MatchStartsWith);
    ASSERT_GE(cIndex, 0) << "the output c is offered";
    results->bufferSelector()->setCurrentIndex(cIndex);
    EXPECT_TRUE(QTest::qWaitFor([&] { return !results->fillPending(); }, 5000));
    const BufferTableModel* model = results->table()->model();
    ASSERT_NE(model, nullptr);
    std::vector<double> shown;
    for (int row = 0; row < model->rowCount(); ++row)
        for (int col = 0; col < model->columnCount(); ++col) {
            bool ok = false;
            const double v = model->data(model->index(row, col), Qt::DisplayRole).toDouble(&ok);
            if (ok)
                shown.push_back(v);
        }
    EXPECT_EQ(shown, (std::vector<double>{5, 7, 9})) << "the table shows c's values";

    // Checks: the one check, passed.
    EXPECT_EQ(results->checks()->summaryTable()->rowCount(), 1);
    EXPECT_TRUE(results->checks()->headline()->text().contains("passed"))
        << results->checks()->headline()->text().toStdString();

    // Timings: the run's repeats, summarised.
    auto* timings = w.window.findChild<TimingsPanel*>();
    ASSERT_NE(timings, nullptr);
    // The timings panel fills in one pass of the event loop after the result arrives.
    EXPECT_TRUE(QTest::qWaitFor([&] { return timings->stats().count > 0; }, 10000));
    EXPECT_EQ(timings->stats().count, r.timings.kernelMs.size());
    EXPECT_GT(r.timings.kernelMs.size(), 0u);
    EXPECT_FALSE(timings->summary()->text().contains("Run the kernel")) << timings->summary()->text().toStdString();
}

TEST(MainWindowLoop, PrintfOfARunFillsThePrintfPanel)
{
    Window w;
    ASSERT_TRUE(w.ready);
    ASSERT_TRUE(w.open("hello_from_gpu.kwb"));
    const RunResult r = w.run();
    ASSERT_TRUE(r.ok) << (r.fault ? r.fault->message : "");
    ASSERT_EQ(r.printf.lines.size(), 60u);
    EXPECT_EQ(w.window.printfPanel()->tableModel()->rowCount(), 60) << "one row per tagged line";
    EXPECT_EQ(w.window.printfPanel()->console()->toPlainText().trimmed().split('\n').size(), 60);
}

TEST(MainWindowLoop, ACompileErrorIsShownWhereItIsAndAFixedRunWorksAgain)
{
    Window w;
    ASSERT_TRUE(w.ready);
    ASSERT_TRUE(w.open("add_vectors_small.kwb"));
    const QString good = w.window.editor()->text();
    w.window.editor()->setText(good + "\n__global__ void broken() { undefined_thing = 1; }\n");
    const int badLine = good.count('\n') + 2;

    QSignalSpy compiled(&w.window, &MainWindow::compileCompleted);
    w.window.compile();
    ASSERT_TRUE(compiled.wait(60000));
    const CompileResult c = compiled.at(0).at(0).value<CompileResult>();
    ASSERT_FALSE(c.ok);
    ASSERT_FALSE(c.diagnostics.empty());
    EXPECT_EQ(c.diagnostics[0].line, badLine);
    auto* problems = w.window.findChild<ProblemsPanel*>();
    ASSERT_NE(problems, nullptr);
    EXPECT_GE(problems->errorCount(), 1);
    EXPECT_TRUE(w.window.editor()->markersAtLine(badLine - 1) & (1 << CodeEditor::ErrorMarker))
        << "the error's line is marked";

    w.window.editor()->setText(good);
    const RunResult r = w.run();
    EXPECT_TRUE(r.ok) << (r.fault ? r.fault->message : "");
    EXPECT_EQ(problems->errorCount(), 0);
}
