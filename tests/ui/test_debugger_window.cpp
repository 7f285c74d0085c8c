// The debugger in the window through a real `kwb-run serve`, as a user drives it: a
// breakpoint clicked in the editor's margin on samples/reduction_shared.kwb's addition,
// Debug, Continue; the arrow, the Lanes dock (each lane's values against the host's
// reduction: block 0 holds 0..255, so in the first pass lane t adds t and t + 128),
// Step and Reverse Step, the Shared memory dock after "to barrier", a watchpoint that
// names who wrote, Stop.
#include "CodeEditor.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "debugger/BreakpointMargin.hpp"
#include "debugger/BreakpointsView.hpp"
#include "debugger/DebugController.hpp"
#include "debugger/DebugToolBar.hpp"
#include "debugger/LanesView.hpp"
#include "debugger/SharedMemoryView.hpp"
#include "debugger/WarpsView.hpp"
#include "test_window_options.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <gtest/gtest.h>

using namespace kw;

namespace {

struct Window {
    MainWindow window{test::windowOptions()};
    DebugController* debug = window.debugController();
    bool ready = false;
    Window()
    {
        window.resize(1366, 768);
        window.show();
        QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
        ready = devices.count() > 0 || devices.wait(20000);
    }
    // Until every command sent has its answer, on the debugger's own signal.
    bool settle()
    {
        QSignalSpy replied(debug, &DebugController::replied);
        while (!debug->idle())
            if (!replied.wait(60000))
                return false;
        return true;
    }
    bool press(const QString& command)
    {
        QAction* a = window.debugToolBar()->action(command);
        if (!a || !a->isEnabled())
            return false;
        a->trigger();
        return settle();
    }
    void type(QLineEdit* field, const QString& text)
    {
        field->setFocus();
        QTest::keyClicks(field, text);
        QTest::keyClick(field, Qt::Key_Return);
    }
    int line(const QString& text) const
    {
        const QStringList lines = window.editor()->text().split('\n');
        for (int i = 0; i < lines.size(); ++i)
            if (lines[i].contains(text))
                return i + 1;
        return 0;
    }
    // A click in the editor's marker margin beside 1-based `line`.
    void clickMargin(int line)
    {
        CodeEditor* e = window.editor();
        e->ensureLineVisible(line - 1);
        const long pos = e->positionFromLineIndex(line - 1, 0);
        const int y
            = int(e->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos)) + e->textHeight(line - 1) / 2;
        const int x = int(e->SendScintilla(QsciScintilla::SCI_GETMARGINWIDTHN, 0UL)) + 6;
        QTest::mouseClick(e->viewport(), Qt::LeftButton, {}, QPoint(x, y));
    }
    double lane(int row, int column) const
    {
        const QTableWidgetItem* item = lanes()->table()->item(row, column);
        return item ? item->text().toDouble() : -1;
    }
    LanesView* lanes() const { return window.findChild<LanesView*>(); }
    SharedMemoryView* shared() const { return window.findChild<SharedMemoryView*>(); }
    const DebugReply& last() const { return debug->lastReply(); }
};

} // namespace

TEST(DebuggerWindow, BreakStepBackBarrierWatchOnTheReduction)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.window.openDocument(QString(KW_SAMPLES_DIR) + "/reduction_shared.kwb"));
    const int addition = w.line("partial[tid] += partial[tid + stride]");
    ASSERT_GT(addition, 0);
    for (QDockWidget* d : w.window.debugDocks())
        EXPECT_FALSE(d->isVisible()) << d->windowTitle().toStdString() << " is shown before debugging";
    EXPECT_FALSE(w.window.debugToolBar()->isVisible());

    w.clickMargin(addition);
    ASSERT_TRUE(w.window.breakpointMargin()->has(addition)) << "the margin click placed no breakpoint";
    EXPECT_TRUE(w.window.editor()->markersAtLine(addition - 1) & (1 << BreakpointMargin::BreakpointMarker));

    auto* results = w.window.findChild<QDockWidget*>("resultsDock");
    ASSERT_TRUE(results);
    const bool resultsShown = results->isVisible(); // no run yet: the run's views wait for one
    QSignalSpy started(w.debug, &DebugController::started);
    w.debug->debugAction()->trigger();
    ASSERT_TRUE(started.wait(120000)) << "the debug session did not open";
    ASSERT_TRUE(w.settle());
    EXPECT_EQ(w.last().stop.reason, "entry");
    EXPECT_EQ(w.last().stop.position, 0u);
    EXPECT_TRUE(w.window.debugToolBar()->isVisible());
    ASSERT_TRUE(results);
    EXPECT_FALSE(results->isVisible()) << "the run's views leave the bottom to the debugger's";
    for (QDockWidget* d : w.window.debugDocks())
        EXPECT_FALSE(d->isHidden()) << d->windowTitle().toStdString();
    ASSERT_EQ(w.last().breakpoints.size(), 1u);
    EXPECT_EQ(w.last().breakpoints[0].line, addition);

    // Columns the user adds: two with spaces, sent comma-separated.
    w.type(w.lanes()->expressionField(), "threadIdx.x");
    w.type(w.lanes()->expressionField(), "in(threadIdx.x) + in(threadIdx.x + 128)");
    ASSERT_TRUE(w.settle());

    ASSERT_TRUE(w.press("continue"));
    EXPECT_EQ(w.last().stop.reason, "breakpoint");
    const std::uint64_t atBreak = w.last().stop.position;
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), addition);
    EXPECT_TRUE(w.window.editor()->markersAtLine(addition - 1) & (1 << BreakpointMargin::CurrentLineMarker));
    QTableWidget* lanes = w.lanes()->table();
    ASSERT_EQ(lanes->rowCount(), 32);
    ASSERT_EQ(lanes->columnCount(), 5);
    for (int t = 0; t < 32; ++t) {
        EXPECT_EQ(lanes->item(t, 1)->text(), "active");
        EXPECT_EQ(lanes->item(t, 2)->text().toInt(), t);
        EXPECT_EQ(w.lane(t, 3), t);
        EXPECT_EQ(w.lane(t, 4), t + (t + 128)) << "lane " << t;
    }

    ASSERT_TRUE(w.press("step"));
    EXPECT_EQ(w.last().stop.reason, "step");
    EXPECT_GT(w.last().stop.position, atBreak);
    EXPECT_NE(w.window.breakpointMargin()->currentLine(), addition);
    ASSERT_TRUE(w.press("reverse-step"));
    EXPECT_EQ(w.last().stop.position, atBreak) << "Reverse Step came back elsewhere";
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), addition);

    // To the store: the registers the addition read and wrote, per lane.
    w.lanes()->removeExpression(1);
    for (const char* e : {"%f4", "%f5", "%f6"})
        w.type(w.lanes()->expressionField(), e);
    ASSERT_TRUE(w.settle());
    for (int i = 0; i < 6; ++i)
        ASSERT_TRUE(w.press("stepi"));
    EXPECT_NE(w.last().warp->where.instruction.indexOf("st.shared.f32"), -1)
        << w.last().warp->where.instruction.toStdString();
    for (int t = 0; t < 32; ++t) {
        EXPECT_EQ(w.lane(t, 4), t);
        EXPECT_EQ(w.lane(t, 5), t + 128);
        EXPECT_EQ(w.lane(t, 6), 2 * t + 128);
    }

    // Every warp adds its pair before the barrier releases: partial[t] = 2t + 128 below 128.
    // The breakpoint off first (a click again): `barrier` stops at breakpoints on its way.
    w.clickMargin(addition);
    EXPECT_FALSE(w.window.breakpointMargin()->has(addition));
    ASSERT_TRUE(w.press("barrier"));
    EXPECT_EQ(w.last().stop.reason, "barrier");
    EXPECT_EQ(w.shared()->type(), "f32");
    for (std::uint32_t t = 0; t < 256; ++t)
        EXPECT_EQ(w.shared()->textAt(4 * t).toDouble(), t < 128 ? 2.0 * t + 128 : double(t)) << "word " << t;
    auto* warps = w.window.findChild<WarpsView*>()->table();
    EXPECT_EQ(warps->rowCount(), 8);

    // A watch on block 1's sum: it stops at its writer.
    w.type(w.window.findChild<BreakpointsView*>()->watchField(), "block_sums(1)");
    ASSERT_TRUE(w.settle());
    EXPECT_TRUE(w.last().breakpoints.empty());
    ASSERT_EQ(w.last().watches.size(), 1u);
    ASSERT_TRUE(w.press("continue"));
    EXPECT_EQ(w.last().stop.reason, "watch");
    EXPECT_NE(w.window.debugToolBar()->stopLabel()->text().indexOf("written by block 1 warp 0 lane 0"), -1)
        << w.window.debugToolBar()->stopLabel()->text().toStdString();

    // To the launch's end: no lane is shown as if it still ran, only going back goes on.
    auto* watches = w.window.findChild<BreakpointsView*>()->tree();
    ASSERT_EQ(watches->topLevelItemCount(), 1);
    watches->setCurrentItem(watches->topLevelItem(0));
    w.window.findChild<BreakpointsView*>()->findChild<QPushButton*>()->click();
    ASSERT_TRUE(w.settle());
    EXPECT_TRUE(w.last().watches.empty());
    ASSERT_TRUE(w.press("continue"));
    EXPECT_EQ(w.last().stop.reason, "finished");
    EXPECT_EQ(lanes->item(0, 1)->text(), "finished");
    EXPECT_TRUE(lanes->item(0, 4)->text().isEmpty());
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), 0);
    EXPECT_FALSE(w.window.debugToolBar()->action("continue")->isEnabled());
    EXPECT_TRUE(w.window.debugToolBar()->action("reverse-continue")->isEnabled());

    QSignalSpy ended(w.debug, &DebugController::ended);
    w.debug->stopAction()->trigger();
    EXPECT_EQ(ended.count(), 1);
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), 0);
    for (QDockWidget* d : w.window.debugDocks())
        EXPECT_FALSE(d->isVisible());
    EXPECT_FALSE(w.window.debugToolBar()->isVisible());
    EXPECT_EQ(results->isVisible(), resultsShown) << "the layout returns as it was";
    EXPECT_TRUE(w.window.launchDock()->isVisible());
}

// A document of steps asks which launch step; the second launch of the two-pass reduction
// starts with the partial sums the first left (1920 each, its check), and a breakpoint's
// condition, set as the margin's menu sets it, stops the lane it names.
TEST(DebuggerWindow, ALaunchStepIsChosenAndAConditionStopsItsLane)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.window.openDocument(QString(KW_SAMPLES_DIR) + "/reduction_two_pass.kwb"));
    const int addition = w.line("partial[tid] += partial[tid + stride]");
    ASSERT_GT(addition, 0);
    w.window.breakpointMargin()->set(addition, {"threadIdx.x == 5", 0, false});
    EXPECT_TRUE(w.window.editor()->markersAtLine(addition - 1) & (1 << BreakpointMargin::ConditionalMarker));

    QStringList offered;
    QTimer chooser; // answers the step question as a user does: the second step, OK
    QObject::connect(&chooser, &QTimer::timeout, [&] {
        auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        chooser.stop();
        offered = dialog->comboBoxItems();
        if (offered.size() > 1)
            dialog->setTextValue(offered.at(1));
        dialog->accept();
    });
    chooser.start(20);
    QSignalSpy started(w.debug, &DebugController::started);
    w.debug->debugAction()->trigger();
    ASSERT_EQ(offered.size(), 2) << offered.join(" | ").toStdString();
    EXPECT_TRUE(offered.at(1).startsWith("Step 2")) << offered.at(1).toStdString();
    ASSERT_TRUE(started.count() > 0 || started.wait(120000)) << "the debug session did not open";
    ASSERT_TRUE(w.settle());
    EXPECT_EQ(w.last().blocks, 1u) << "the second launch has one block";

    w.type(w.lanes()->expressionField(), "partial(threadIdx.x)"); // the document's buffer the step reads
    ASSERT_TRUE(w.settle());
    ASSERT_TRUE(w.press("continue"));
    EXPECT_EQ(w.last().stop.reason, "breakpoint");
    EXPECT_EQ(w.last().stop.lane, 5);
    EXPECT_EQ(w.last().focusLane, 5);
    EXPECT_EQ(w.window.debugToolBar()->threadBox()->value(), 5);
    for (int t = 0; t < 32; ++t)
        EXPECT_EQ(w.lane(t, 3), 1920) << "lane " << t;
    w.debug->stopAction()->trigger();
}
