// The Run menu's actions do what they say when chosen: Profile runs a profiled run on
// the simulator, each Check entry runs with its check (named on the toolbar, run again
// from there), a check that finds nothing says so, and a plain Run after either runs
// plain. What is only worth knowing (the simulator's cap on timed repeats) is
// information, not a warning.
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "WorkbenchDocument.hpp"
#include "launch/RunNotes.hpp"
#include "profile/ProfileView.hpp"
#include "qstring_printer.hpp"
#include "test_window_options.hpp"
#include "views/PtxPanel.hpp"
#include "views_test_app.hpp"

#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <gtest/gtest.h>

#include <algorithm>

using namespace kw;

namespace {

// With KW_SHOT_DIR set, a picture of the window to look at (run under xvfb-run).
void shot(QWidget* w, const char* name)
{
    if (qEnvironmentVariableIsSet("KW_SHOT_DIR"))
        w->grab().save(qEnvironmentVariable("KW_SHOT_DIR") + "/" + name + ".png");
}

struct Window : test::SampleWindow {
    Window()
        : SampleWindow("add_vectors_small.kwb")
    {
    }
    // Triggers `a` and returns the run it started.
    std::optional<RunResult> runBy(QAction* a)
    {
        QSignalSpy ran(&window, &MainWindow::runCompleted);
        a->trigger();
        if (!ran.wait(120000))
            return std::nullopt;
        return ran.at(0).at(0).value<RunResult>();
    }
    QAction* checkEntry(const QString& words) const
    {
        for (QAction* top : window.menuBar()->actions())
            if (top->menu() && QString(top->text()).remove('&') == "Run")
                for (QAction* a : top->menu()->actions())
                    if (a->menu() && QString(a->text()).remove('&') == "Check")
                        for (QAction* entry : a->menu()->actions())
                            if (QString(entry->text()).remove('&').contains(words))
                                return entry;
        return nullptr;
    }
    ErrorBanner* banner() const { return window.findChild<ErrorBanner*>(); }
};

} // namespace

TEST(RunActions, ProfileRunsAProfiledRunOnTheSimulator)
{
    Window w;
    ASSERT_TRUE(w.ready);
    ASSERT_FALSE(w.window.profileAction()->isCheckable());
    const auto r = w.runBy(w.window.profileAction());
    ASSERT_TRUE(r);
    EXPECT_EQ(r->device.id, "sim");
    EXPECT_TRUE(r->profile) << "one action, one profiled run";
    EXPECT_TRUE(w.window.profileView()->hasProfile());
    // Run afterwards runs plain: Profile is no switch left on.
    const auto plain = w.runBy(w.window.runAction());
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->profile);
}

TEST(RunActions, ACheckEntryRunsWithItsCheckAndTheToolbarNamesIt)
{
    Window w;
    ASSERT_TRUE(w.ready);
    // The toolbar carries the check action, naming the check it runs.
    QToolBar* bar = w.window.findChild<QToolBar*>("mainToolBar");
    ASSERT_NE(bar, nullptr);
    ASSERT_TRUE(bar->actions().contains(w.window.checkAction()));
    auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(w.window.checkAction()));
    ASSERT_NE(button, nullptr);
    EXPECT_TRUE(button->isVisible());
    EXPECT_EQ(button->text(), "Check: memcheck");

    QAction* racecheck = w.checkEntry("racecheck");
    ASSERT_NE(racecheck, nullptr);
    EXPECT_FALSE(racecheck->isCheckable()) << "an entry runs; it is no switch";
    const auto r = w.runBy(racecheck);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->check, CheckTool::Racecheck);
    EXPECT_TRUE(r->findings.empty());
    EXPECT_EQ(button->text(), "Check: racecheck");
    // Nothing found is said, as information.
    ASSERT_FALSE(w.banner()->isHidden());
    EXPECT_EQ(w.banner()->title(), "racecheck: no problems found");
    EXPECT_EQ(w.banner()->level(), ErrorBanner::Level::Information);
    shot(&w.window, "check-clean");

    // The toolbar's button runs the same check again; Run runs without one.
    const auto again = w.runBy(w.window.checkAction());
    ASSERT_TRUE(again);
    EXPECT_EQ(again->check, CheckTool::Racecheck);
    const auto plain = w.runBy(w.window.runAction());
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->check, CheckTool::None);
    EXPECT_TRUE(w.banner()->isHidden()) << w.banner()->title();
}

TEST(RunActions, TheSimulatorsCapOnRepeatsIsInformationNotAWarning)
{
    Window w;
    ASSERT_TRUE(w.ready);
    Document d = w.window.currentDocument();
    d.run.repeats = 1000000; // far more than the simulator's time budget for repeats
    w.window.document()->edit(DocumentPart::Launch, d);
    const auto r = w.runBy(w.window.runAction());
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->ok) << (r->fault ? r->fault->message : "no fault") << "; " << r->stopped;
    ASSERT_EQ(r->warnings.size(), 1u);
    EXPECT_NE(r->warnings[0].find("timed repeats"), std::string::npos) << r->warnings[0];
    EXPECT_TRUE(isNote(r->warnings[0])) << "the cap is information";
    ASSERT_FALSE(w.banner()->isHidden());
    EXPECT_EQ(w.banner()->level(), ErrorBanner::Level::Information);
    EXPECT_NE(w.banner()->title(), "Run finished with warnings");
    EXPECT_TRUE(w.banner()->text().contains("timed repeats")) << w.banner()->text();
    shot(&w.window, "repeats-note");
}

TEST(RunActions, ThePtxViewTakesTheLiveChecksCompileInsteadOfAnotherOne)
{
    Window w;
    ASSERT_TRUE(w.ready);
    // The live check of the opened document has compiled it.
    ASSERT_TRUE(QTest::qWaitFor([&] { return w.window.launchPanel()->resourcesText().contains("Registers:"); }, 60000));
    QSignalSpy compiles(w.window.runner(), &RunnerClient::compileFinished);
    const auto r = w.runBy(w.window.runAction());
    ASSERT_TRUE(r && r->ok);
    EXPECT_TRUE(r->compile.ptx.empty()) << "a run's compile comes without its PTX";
    QTest::qWait(300);
    EXPECT_EQ(compiles.count(), 0) << "no compile on the runner for the PTX view";
    EXPECT_TRUE(w.window.ptxPanel()->text()->toPlainText().contains(".entry")) << "the PTX view is empty";
}

// A race is two accesses: the editor marks both lines, and the banner names both.
TEST(RunActions, ARaceMarksTheLinesOfBothItsAccesses)
{
    Window w;
    ASSERT_TRUE(w.ready);
    ASSERT_TRUE(w.window.openDocument(QString(KW_TEST_DATA_DIR) + "/docs/checks/sim/racecheck_warp_neighbours.kwb"));
    w.window.trustCurrentDocument(); // a document from elsewhere runs once trusted
    w.window.launchPanel()->setCurrentDevice("sim");
    const auto r = w.runBy(w.checkEntry("racecheck"));
    ASSERT_TRUE(r) << w.banner()->text();
    // Line 5 stores s[t], line 6 reads the neighbour's word (RAW), line 7 overwrites it (WAR).
    const auto raw = std::find_if(r->findings.begin(), r->findings.end(),
                                  [](const CheckFinding& f) { return f.kind.ends_with("read after write"); });
    ASSERT_NE(raw, r->findings.end());
    EXPECT_EQ(raw->line, 6);
    EXPECT_EQ(raw->otherLine, 5);
    const QList<int>& marked = w.window.editor()->faultLines();
    EXPECT_TRUE(marked.contains(5)) << "the write the read races with";
    EXPECT_TRUE(marked.contains(6));
    EXPECT_TRUE(marked.contains(7)) << "the overwrite after the read";
    for (int line : {5, 6, 7})
        EXPECT_NE(w.window.editor()->markersAtLine(line - 1), 0) << "a margin marker at line " << line;
    EXPECT_EQ(w.window.editor()->markersAtLine(7), 0) << "line 8 is not at fault";
    EXPECT_TRUE(w.banner()->text().contains("lines 5 and 6: ")) << w.banner()->text();
    EXPECT_TRUE(w.banner()->text().contains("lines 6 and 7: ")) << w.banner()->text();
    // Each race says what it is in words beside the sanitizer's RAW or WAR, and names its
    // accesses by the document's name for its source (kernel.cu for a source written in the
    // document), never by a folder the source was compiled in.
    EXPECT_TRUE(w.banner()->text().contains("shared-memory race: read after write — RAW hazard")) << w.banner()->text();
    EXPECT_TRUE(w.banner()->text().contains("writes at kernel.cu:5 (")) << w.banner()->text();
    EXPECT_FALSE(w.banner()->text().contains("/kernel.cu")) << w.banner()->text();
}
