// Run > Run as You Type: a pause after an edit runs the document by itself, runs never
// overlap (an edit made during a run asks for one more run when it ends), and a compile
// error met while typing stays in the editor's squiggles instead of the banner.
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "LaunchPanel.hpp"
#include "LiveDiagnostics.hpp"
#include "MainWindow.hpp"
#include "RunAsYouType.hpp"
#include "RunnerClient.hpp"
#include "qstring_printer.hpp"
#include "test_window_options.hpp"
#include "views_test_app.hpp"

#include <QDateTime>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

using namespace kw;

TEST(RunAsYouType, APauseAfterTheLastEditAsksForOneRun)
{
    test::app();
    RunAsYouType typing;
    typing.setDelay(30);
    QSignalSpy due(&typing, &RunAsYouType::runDue);
    typing.edited(); // off: nothing
    QTest::qWait(80);
    EXPECT_EQ(due.count(), 0);

    typing.setEnabled(true);
    for (int i = 0; i < 5; ++i) {
        typing.edited();
        QTest::qWait(5);
    }
    EXPECT_EQ(due.count(), 0) << "still typing";
    ASSERT_TRUE(due.wait(1000));
    QTest::qWait(80);
    EXPECT_EQ(due.count(), 1) << "five edits, one pause, one run";
}

TEST(RunAsYouType, AnEditDuringARunAsksForOneMoreRunWhenItEnds)
{
    test::app();
    RunAsYouType typing;
    typing.setDelay(20);
    typing.setEnabled(true);
    QSignalSpy due(&typing, &RunAsYouType::runDue);
    typing.setBusy(true);
    typing.edited();
    QTest::qWait(80);
    EXPECT_EQ(due.count(), 0) << "runs never overlap";
    EXPECT_TRUE(typing.waiting());
    typing.setBusy(false);
    EXPECT_EQ(due.count(), 1) << "the run that ended makes room for the one asked for";
    typing.setBusy(true);
    typing.setBusy(false);
    EXPECT_EQ(due.count(), 1) << "no edit since: no run";

    typing.setBusy(true);
    typing.edited();
    typing.setEnabled(false);
    QTest::qWait(80);
    typing.setBusy(false);
    EXPECT_EQ(due.count(), 1) << "turned off: what was asked for is dropped";
}

TEST(RunAsYouType, ThePauseStartsTheRunsCompileBeforeTheRunIsDue)
{
    test::app();
    RunAsYouType typing;
    typing.setDelay(400);
    EXPECT_EQ(typing.prepareDelay(), 250) << "a small kernel's compile ahead of the run";
    typing.setCompileTime(160);
    EXPECT_EQ(typing.prepareDelay(), 200) << "ahead by a little more than the last compile took";
    typing.setCompileTime(10);
    EXPECT_EQ(typing.prepareDelay(), 250) << "never less than 150 ms ahead";
    typing.setCompileTime(900); // a kernel with the CUDA headers, without its PCH yet
    EXPECT_EQ(typing.prepareDelay(), 200) << "at most half the pause";
    typing.setDelay(60);
    EXPECT_EQ(typing.prepareDelay(), 30);
    typing.setEnabled(true);
    QSignalSpy prepare(&typing, &RunAsYouType::prepareDue);
    QSignalSpy ended(&typing, &RunAsYouType::pauseEnded);
    int preparedAtRun = -1;
    QObject::connect(&typing, &RunAsYouType::runDue, [&] { preparedAtRun = prepare.count(); });
    typing.edited();
    QTest::qWait(10);
    typing.edited();
    ASSERT_TRUE(QTest::qWaitFor([&] { return preparedAtRun >= 0; }, 2000));
    EXPECT_EQ(preparedAtRun, 1) << "one compile, in the pause after the last edit, before the run";
    EXPECT_EQ(ended.count(), 1);

    // Busy: no compile is queued behind the job in flight; the pause still ends.
    prepare.clear();
    ended.clear();
    preparedAtRun = -1;
    typing.setBusy(true);
    typing.edited();
    ASSERT_TRUE(ended.wait(2000));
    EXPECT_EQ(prepare.count(), 0);
    EXPECT_EQ(preparedAtRun, -1) << "the run waits for the job in flight";
    typing.setBusy(false);
    EXPECT_EQ(preparedAtRun, 0);

    typing.edited();
    typing.setEnabled(false);
    QTest::qWait(120);
    EXPECT_EQ(prepare.count(), 0) << "turned off: nothing compiles";
}

namespace {

struct Window : test::SampleWindow {
    Window()
        : SampleWindow("add_vectors_small.kwb")
    {
    }
    QAction* runAsYouType() const { return runMenuEntry("Run as You Type"); }
    std::vector<float> out(const RunResult& r) const
    {
        for (const BufferResult& b : r.buffers)
            if (b.name == "c") {
                const auto* f = reinterpret_cast<const float*>(b.data.data());
                return std::vector<float>(f, f + b.data.count());
            }
        return {};
    }
};

} // namespace

TEST(RunAsYouType, EditingTheKernelShowsItsNewResultWithoutPressingRun)
{
    Window w;
    ASSERT_TRUE(w.ready);
    QAction* toggle = w.runAsYouType();
    ASSERT_NE(toggle, nullptr) << "Run > Run as You Type";
    ASSERT_TRUE(toggle->isCheckable());
    toggle->setChecked(true);
    auto* typing = w.window.findChild<RunAsYouType*>();
    ASSERT_NE(typing, nullptr);
    ASSERT_TRUE(typing->isEnabled());
    typing->setDelay(50);

    QSignalSpy ran(&w.window, &MainWindow::runCompleted);
    QString source = w.window.editor()->text();
    source.replace("a[idx] + b[idx]", "a[idx] * b[idx]");
    w.window.editor()->setText(source);
    ASSERT_TRUE(ran.wait(120000)) << "no run followed the edit";
    const RunResult product = ran.at(0).at(0).value<RunResult>();
    ASSERT_TRUE(product.compile.ok);
    ASSERT_FALSE(product.fault);
    EXPECT_EQ(w.out(product), (std::vector<float>{4, 10, 18})) << "[1,2,3] * [4,5,6]";
    EXPECT_LE(product.timings.kernelMs.size(), 1u) << "a run while typing launches once: no timed repeats";

    // Half-written code: the run's compile fails, quietly.
    ran.clear();
    source.replace("a[idx] * b[idx]", "a[idx] * ");
    w.window.editor()->setText(source);
    ASSERT_TRUE(ran.wait(120000));
    EXPECT_FALSE(ran.at(0).at(0).value<RunResult>().compile.ok);
    auto* banner = w.window.findChild<ErrorBanner*>();
    EXPECT_NE(banner->title(), "Compile failed") << "the squiggles say it while typing";

    // Pressing Run on the same text says it loud.
    ran.clear();
    w.window.run();
    ASSERT_TRUE(ran.wait(120000));
    EXPECT_EQ(banner->title(), "Compile failed");

    // Fixed, Run times the document's repeats as always.
    source.replace("a[idx] * ", "a[idx] * b[idx]");
    w.window.editor()->setText(source);
    ran.clear();
    w.window.run();
    ASSERT_TRUE(ran.wait(120000));
    EXPECT_GT(ran.at(0).at(0).value<RunResult>().timings.kernelMs.size(), 1u);

    // Turned off, an edit runs nothing.
    toggle->setChecked(false);
    ran.clear();
    source.replace("a[idx] * b[idx]", "a[idx] - b[idx]");
    w.window.editor()->setText(source);
    EXPECT_FALSE(ran.wait(1500));
    toggle->setChecked(false);
}

// The run a pause starts compiles the text and shows its diagnostics: the live check
// waits for it instead of compiling the same text beside it, and follows it.
TEST(RunAsYouType, TheLiveCheckFollowsTheRunInsteadOfRacingIt)
{
    Window w;
    ASSERT_TRUE(w.ready);
    w.runAsYouType()->setChecked(true);
    auto* typing = w.window.findChild<RunAsYouType*>();
    typing->setDelay(50);
    LiveDiagnostics* live = w.window.liveDiagnostics();
    live->setDelay(10); // due long before the run: held back all the same
    ASSERT_TRUE(QTest::qWaitFor([&] { return !live->busy() && !w.window.runner()->busy(); }, 60000));

    QSignalSpy started(live, &LiveDiagnostics::started);
    QSignalSpy checked(live, &LiveDiagnostics::finished);
    QSignalSpy ran(&w.window, &MainWindow::runCompleted);
    int startedAtResult = -1;
    QObject::connect(&w.window, &MainWindow::runCompleted, [&] { startedAtResult = started.count(); });
    QString source = w.window.editor()->text();
    source.replace("a[idx] + b[idx]", "a[idx] * b[idx]");
    w.window.editor()->setText(source);
    ASSERT_TRUE(ran.wait(120000));
    EXPECT_TRUE(ran.at(0).at(0).value<RunResult>().compile.ok);
    EXPECT_EQ(startedAtResult, 0) << "no live compile beside the run's";
    ASSERT_TRUE(checked.count() > 0 || checked.wait(120000)) << "the live check follows the run";
    EXPECT_TRUE(checked.at(0).at(0).value<CompileResult>().ok);

    // Run as You Type off: the live check runs after its pause, as always.
    w.runAsYouType()->setChecked(false);
    started.clear();
    source.replace("a[idx] * b[idx]", "a[idx] - b[idx]");
    w.window.editor()->setText(source);
    EXPECT_TRUE(started.count() > 0 || started.wait(5000));
    EXPECT_EQ(ran.count(), 1) << "and nothing runs";
}

// The pause compiles the edit in the runner, so the run at its end takes its program from
// the runner's cache: the result is the edited kernel's, and no live compile ran beside it.
TEST(RunAsYouType, TheRunFindsItsProgramCompiledInThePause)
{
    Window w;
    ASSERT_TRUE(w.ready);
    w.runAsYouType()->setChecked(true);
    auto* typing = w.window.findChild<RunAsYouType*>();
    typing->setDelay(300);
    LiveDiagnostics* live = w.window.liveDiagnostics();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !live->busy() && !w.window.runner()->busy(); }, 60000));

    QSignalSpy started(live, &LiveDiagnostics::started);
    QSignalSpy prepared(typing, &RunAsYouType::prepareDue);
    QSignalSpy ran(&w.window, &MainWindow::runCompleted);
    int startedAtResult = -1;
    QObject::connect(&w.window, &MainWindow::runCompleted, [&] { startedAtResult = started.count(); });
    QString source = w.window.editor()->text();
    // A constant no earlier run compiled: the program cache on disk outlives the process.
    const QString stamp = QString::number(QDateTime::currentMSecsSinceEpoch());
    source.replace("a[idx] + b[idx]", "a[idx] + b[idx] + 0.0f * " + stamp + ".0f + 10.0f");
    w.window.editor()->setText(source);
    ASSERT_TRUE(ran.wait(120000));
    EXPECT_EQ(prepared.count(), 1);
    const RunResult r = ran.at(0).at(0).value<RunResult>();
    ASSERT_TRUE(r.compile.ok);
    ASSERT_FALSE(r.fault);
    EXPECT_TRUE(r.compile.cacheHit) << "compiled in the pause";
    EXPECT_EQ(w.out(r), (std::vector<float>{15, 17, 19})) << "[1,2,3] + [4,5,6] + 10: the edited kernel ran";
    EXPECT_EQ(startedAtResult, 0) << "the live check waited for the run, not for the pause's compile";
    w.runAsYouType()->setChecked(false);
}
