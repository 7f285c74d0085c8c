// The debugger in the window through a real `kwb-run serve`, as a user drives it: a
// breakpoint clicked in the editor's margin on samples/reduction_shared.kwb's addition,
// Debug, Continue; the arrow, the Lanes dock (each lane's values against the host's
// reduction: block 0 holds 0..255, so in the first pass lane t adds t and t + 128),
// Step and Reverse Step, the Shared memory dock after "to barrier", a watchpoint that
// names who wrote, Stop. On a stopped line with a breakpoint the dot and the arrow are
// both drawn, debug commands do not flash the progress bar (a long continue shows it after
// a delay), Pause stops a running continue and shows where, and Help lists the debug keys.
#include "CodeEditor.hpp"
#include "HelpMenu.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunController.hpp"
#include "RunnerClient.hpp"
#include "debugger/BreakpointMargin.hpp"
#include "debugger/BreakpointsView.hpp"
#include "debugger/DebugController.hpp"
#include "debugger/DebugReply.hpp"
#include "debugger/DebugToolBar.hpp"
#include "debugger/LanesView.hpp"
#include "debugger/PtxView.hpp"
#include "debugger/SharedMemoryView.hpp"
#include "debugger/WarpsView.hpp"
#include "test_window_options.hpp"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QToolButton>
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
    // Opens a document written by the test (so from elsewhere: trusted first, as a user
    // would) and starts debugging it.
    bool debugWritten(const QString& path)
    {
        if (!window.openDocument(path))
            return false;
        window.trustCurrentDocument();
        QSignalSpy started(debug, &DebugController::started);
        debug->debugAction()->trigger();
        return started.wait(120000) && settle();
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
    // A click in the editor's marker margin beside 1-based `line` (or in the PTX view's).
    void clickMargin(int line, QsciScintilla* e = nullptr)
    {
        if (!e)
            e = window.editor();
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
    const int thread = w.lanes()->expressionColumn("threadIdx.x");
    const int pair = w.lanes()->expressionColumn("in(threadIdx.x) + in(threadIdx.x + 128)");
    ASSERT_GT(thread, 2);
    ASSERT_EQ(pair, thread + 1);
    // The kernel's parameters follow the expressions: n, then the pointers in and block_sums.
    ASSERT_EQ(lanes->columnCount(), pair + 4);
    EXPECT_EQ(w.lanes()->variableColumn("n"), pair + 1);
    for (int t = 0; t < 32; ++t) {
        EXPECT_EQ(lanes->item(t, 1)->text(), "active");
        EXPECT_EQ(lanes->item(t, 2)->text().toInt(), t);
        EXPECT_EQ(w.lane(t, thread), t);
        EXPECT_EQ(w.lane(t, pair), t + (t + 128)) << "lane " << t;
    }

    ASSERT_TRUE(w.press("step"));
    EXPECT_EQ(w.last().stop.reason, "step");
    EXPECT_GT(w.last().stop.position, atBreak);
    EXPECT_NE(w.window.breakpointMargin()->currentLine(), addition);
    ASSERT_TRUE(w.press("reverse-step"));
    EXPECT_EQ(w.last().stop.position, atBreak) << "Reverse Step came back elsewhere";
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), addition);

    // Instruction by instruction to the store: the words the addition reads, by the source's
    // names, per lane; nothing is stored yet.
    w.lanes()->removeExpression(1);
    for (const char* e : {"partial(tid)", "partial(tid + stride)"})
        w.type(w.lanes()->expressionField(), e);
    ASSERT_TRUE(w.settle());
    // -G stores through a generic address (st.f32), the optimized code to shared memory.
    const QRegularExpression store(R"(\bst\.(shared\.)?f32\b)");
    for (int i = 0; i < 64 && !w.last().warp->where.instruction.contains(store); ++i)
        ASSERT_TRUE(w.press("stepi"));
    EXPECT_TRUE(w.last().warp->where.instruction.contains(store)) << w.last().warp->where.instruction.toStdString();
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), addition);
    const int left = w.lanes()->expressionColumn("partial(tid)");
    const int right = w.lanes()->expressionColumn("partial(tid + stride)");
    ASSERT_GT(left, 2);
    for (int t = 0; t < 32; ++t) {
        EXPECT_EQ(w.lane(t, w.lanes()->expressionColumn("threadIdx.x")), t);
        EXPECT_EQ(w.lane(t, left), t);
        EXPECT_EQ(w.lane(t, right), t + 128);
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
    EXPECT_EQ(w.lanes()->variableColumn("tid"), -1) << "no variable is in scope once the launch has finished";
    EXPECT_TRUE(lanes->item(0, w.lanes()->expressionColumn("partial(tid)"))->text().isEmpty());
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

// The Lanes dock shows the source's variables in scope by name, with their types, each
// lane's value equal to the host's: in block B, warp W, lane l is tid = 32W + l, its
// element i = 256B + tid, and the loop's stride halves from 128 while tid < stride holds
// at the addition. A variable without a place at the pc shows so, with no value.
TEST(DebuggerWindow, TheLanesDockShowsTheSourceVariablesByName)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.window.openDocument(QString(KW_SAMPLES_DIR) + "/reduction_shared.kwb"));
    const int addition = w.line("partial[tid] += partial[tid + stride]");
    ASSERT_GT(addition, 0);
    w.clickMargin(addition);
    QSignalSpy started(w.debug, &DebugController::started);
    w.debug->debugAction()->trigger();
    ASSERT_TRUE(started.wait(120000)) << "the debug session did not open";
    ASSERT_TRUE(w.settle());
    QTableWidget* lanes = w.lanes()->table();

    // Whatever has no place at a pc shows why in every thread's cell, never a number.
    const auto unavailableShownSo = [&] {
        int unavailable = 0;
        for (const DebugLocal& v : w.last().locals) {
            const int column = w.lanes()->variableColumn(v.name);
            EXPECT_GT(column, 2) << v.name.toStdString();
            if (v.available || column < 0)
                continue;
            ++unavailable;
            for (int l = 0; l < 32; ++l) {
                EXPECT_FALSE(v.texts[std::size_t(l)]) << v.name.toStdString() << " lane " << l;
                EXPECT_EQ(lanes->item(l, column)->text(), v.why) << v.name.toStdString() << " lane " << l;
                EXPECT_FALSE(v.why.isEmpty());
            }
        }
        return unavailable;
    };
    ASSERT_FALSE(w.last().locals.empty()) << "the window's session is compiled without -G";
    EXPECT_GT(unavailableShownSo(), 0) << "at the first instruction the parameters are not loaded yet";

    std::uint32_t lastStride = 256;
    for (int hit = 0; hit < 6; ++hit) {
        ASSERT_TRUE(w.press("continue"));
        ASSERT_EQ(w.last().stop.reason, "breakpoint");
        const std::uint64_t block = w.last().focusBlock;
        const int warp = w.last().focusWarp;
        const int tid = w.lanes()->variableColumn("tid");
        const int stride = w.lanes()->variableColumn("stride");
        const int n = w.lanes()->variableColumn("n");
        ASSERT_GT(tid, 2);
        ASSERT_GT(stride, 2);
        ASSERT_GT(n, 2);
        EXPECT_EQ(w.lanes()->headerText(tid), "tid (unsigned int)");
        EXPECT_EQ(w.lanes()->headerText(n), "n (int)");
        EXPECT_TRUE(lanes->horizontalHeaderItem(tid)->text().startsWith("tid")) << "the name is cut";
        const std::uint32_t s = std::uint32_t(w.lane(0, stride));
        EXPECT_TRUE(s > 0 && (s & (s - 1)) == 0 && s <= 128) << "stride " << s;
        if (hit == 0) {
            EXPECT_EQ(block, 0u);
            EXPECT_EQ(warp, 0);
            EXPECT_EQ(s, 128u);
        }
        EXPECT_LE(s, lastStride) << "within block 0 the stride only halves";
        lastStride = s;
        for (int l = 0; l < 32; ++l) {
            const std::uint32_t t = std::uint32_t(32 * warp + l);
            EXPECT_EQ(w.lane(l, tid), t) << "lane " << l;
            EXPECT_EQ(w.lane(l, stride), s) << "lane " << l;
            EXPECT_EQ(w.lane(l, n), 1 << 16) << "lane " << l;
            EXPECT_LT(t, s) << "only the lanes below the stride add";
            const auto& locals = w.last().locals;
            const auto local
                = std::find_if(locals.begin(), locals.end(), [](const DebugLocal& v) { return v.name == "i"; });
            if (const int i = w.lanes()->variableColumn("i"); i > 0 && local != locals.end() && local->available)
                EXPECT_EQ(w.lane(l, i), 256.0 * double(block) + t) << "lane " << l;
        }
        unavailableShownSo();
    }
    w.debug->stopAction()->trigger();
}

// At 1366×768 the loop's variables and the user's expressions come first, in view without
// scrolling: the locals in the order the source declares them (tid, i, stride), then the
// expressions, then the scalar parameter n, then the pointers in and block_sums.
TEST(DebuggerWindow, TheLanesDockShowsTheLoopBeforeTheParameters)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.window.openDocument(QString(KW_SAMPLES_DIR) + "/reduction_shared.kwb"));
    const int addition = w.line("partial[tid] += partial[tid + stride]");
    ASSERT_GT(addition, 0);
    w.clickMargin(addition);
    QSignalSpy started(w.debug, &DebugController::started);
    w.debug->debugAction()->trigger();
    ASSERT_TRUE(started.wait(120000)) << "the debug session did not open";
    ASSERT_TRUE(w.settle());
    w.type(w.lanes()->expressionField(), "partial(tid)");
    ASSERT_TRUE(w.settle());
    ASSERT_TRUE(w.press("continue"));
    ASSERT_EQ(w.last().stop.reason, "breakpoint");
    LanesView* v = w.lanes();
    const int tid = v->variableColumn("tid"), i = v->variableColumn("i"), stride = v->variableColumn("stride");
    const int sum = v->expressionColumn("partial(tid)");
    const int n = v->variableColumn("n"), in = v->variableColumn("in"), sums = v->variableColumn("block_sums");
    EXPECT_EQ(tid, 3);
    EXPECT_EQ(i, 4);
    EXPECT_EQ(stride, 5);
    EXPECT_EQ(sum, 6);
    EXPECT_EQ(n, 7);
    EXPECT_EQ(std::min(in, sums), 8);
    EXPECT_EQ(std::max(in, sums), 9);
    EXPECT_EQ(v->headerText(stride), "stride (unsigned int)");
    for (int l = 0; l < 32; ++l) {
        EXPECT_EQ(w.lane(l, stride), 128) << "lane " << l;
        EXPECT_EQ(w.lane(l, sum), l) << "lane " << l; // block 0 holds 0..255
    }
    // In view without scrolling, at the window's own size, each header showing at least its
    // whole name: the type may go, the name is never cut to "par…".
    QTableWidget* t = v->table();
    const QFontMetrics fm = t->horizontalHeader()->fontMetrics();
    for (int c : {tid, i, stride, sum}) {
        EXPECT_LE(t->columnViewportPosition(c) + t->columnWidth(c), t->viewport()->width())
            << v->headerText(c).toStdString() << " is out of view";
        const QString shown = t->horizontalHeaderItem(c)->text();
        EXPECT_LE(fm.horizontalAdvance(shown), t->columnWidth(c)) << shown.toStdString() << " is cut";
        EXPECT_TRUE(shown == v->headerText(c) || v->headerText(c).startsWith(shown + " ("))
            << shown.toStdString() << " for " << v->headerText(c).toStdString();
    }
    EXPECT_EQ(t->horizontalHeaderItem(sum)->text(), "partial(tid)");
    w.debug->stopAction()->trigger();
}

namespace {

// The PTX view's line of the first instruction of `line` whose text contains `what`; 0: none.
int ptxLine(const PtxView& v, const DebugReply& listing, int line, const QString& what)
{
    for (std::size_t pc = 0; listing.ptx && pc < listing.ptx->size(); ++pc)
        if ((*listing.ptx)[pc].line == line && (*listing.ptx)[pc].instruction.contains(what))
            return v.lineOf(int(pc));
    return 0;
}

} // namespace

// The PTX view while debugging: the kernel's instructions with the source lines they come
// from, the focused warp's next one marked; a click in its margin places a breakpoint on
// an instruction (the addition's add.f32, inside its line), Continue stops there,
// its Instr and ◀ Instr buttons move one instruction each way, the Breakpoints dock names
// the pc and removes it, and the listing goes with the debugger.
TEST(DebuggerWindow, ThePtxViewBreaksAndStepsByInstruction)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.window.openDocument(QString(KW_SAMPLES_DIR) + "/reduction_shared.kwb"));
    const int addition = w.line("partial[tid] += partial[tid + stride]");
    ASSERT_GT(addition, 0);
    PtxView* ptx = w.window.debugPtxView();
    ASSERT_TRUE(ptx);
    EXPECT_EQ(ptx->instructions(), 0);
    DebugReply listing;
    QObject::connect(w.debug, &DebugController::replied, [&](const DebugReply& r) {
        if (r.ptx)
            listing = r;
    });
    QSignalSpy started(w.debug, &DebugController::started);
    w.debug->debugAction()->trigger();
    ASSERT_TRUE(started.wait(120000)) << "the debug session did not open";
    ASSERT_TRUE(w.settle());
    ASSERT_TRUE(listing.ptx.has_value()) << "no ptx answer";
    ASSERT_EQ(ptx->instructions(), int(listing.ptx->size()));
    auto* dock = qobject_cast<QDockWidget*>(ptx->parentWidget());
    ASSERT_TRUE(dock);
    EXPECT_FALSE(dock->isHidden());
    dock->raise(); // its tab, as a user clicks it
    QTest::qWait(20);

    // Every instruction on its own line, after a comment quoting its source line.
    QsciScintilla* e = ptx->editor();
    for (int pc = 0; pc < ptx->instructions(); ++pc) {
        const int line = ptx->lineOf(pc);
        ASSERT_GT(line, 0);
        EXPECT_EQ(ptx->pcOf(line), pc);
        EXPECT_TRUE(e->text(line - 1).contains((*listing.ptx)[std::size_t(pc)].instruction)) << pc;
    }
    const int first = ptx->lineOf(0);
    EXPECT_EQ(ptx->pcOf(first - 1), -1) << "no comment above the first instruction";
    EXPECT_TRUE(e->text(first - 2).contains("__global__ void block_sum")) << e->text(first - 2).toStdString();
    EXPECT_EQ(ptx->currentPc(), 0);
    EXPECT_TRUE(e->markersAtLine(first - 1) & (1 << BreakpointMargin::CurrentLineMarker));

    // A breakpoint on the addition's own instruction, in the middle of its line.
    const int addLine = ptxLine(*ptx, listing, addition, "add.f32");
    ASSERT_GT(addLine, 0) << "no add.f32 on the addition's line";
    const int pc = ptx->pcOf(addLine);
    ASSERT_GT(pc, 0);
    EXPECT_EQ((*listing.ptx)[std::size_t(pc - 1)].line, addition) << "the add is inside its line, not where it begins";
    w.clickMargin(addLine, e);
    ASSERT_TRUE(ptx->margin()->has(addLine)) << "the margin click placed no breakpoint";
    EXPECT_TRUE(e->markersAtLine(addLine - 1) & (1 << BreakpointMargin::BreakpointMarker));
    ASSERT_TRUE(w.settle());
    ASSERT_EQ(w.last().breakpoints.size(), 1u);
    EXPECT_EQ(w.last().breakpoints[0].pc, pc);
    EXPECT_EQ(w.last().breakpoints[0].line, addition);
    auto* tree = w.window.findChild<BreakpointsView*>()->tree();
    ASSERT_EQ(tree->topLevelItemCount(), 1);
    EXPECT_EQ(tree->topLevelItem(0)->text(1), QString("pc %1 (line %2)").arg(pc).arg(addition));
    // The source's margin has no dot for it: it is the PTX view's.
    EXPECT_FALSE(w.window.breakpointMargin()->has(addition));

    ASSERT_TRUE(w.press("continue"));
    ASSERT_EQ(w.last().stop.reason, "breakpoint");
    ASSERT_TRUE(w.last().warp.has_value());
    EXPECT_EQ(w.last().warp->where.pc, pc);
    EXPECT_EQ(ptx->currentPc(), pc);
    EXPECT_TRUE(e->markersAtLine(addLine - 1) & (1 << BreakpointMargin::CurrentLineMarker));
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), addition) << "the source's arrow follows too";

    // The view's own buttons: the toolbar's instruction motions.
    QToolButton* instr = nullptr;
    QToolButton* back = nullptr;
    for (QToolButton* b : ptx->findChildren<QToolButton*>()) {
        if (b->defaultAction() == w.window.debugToolBar()->action("stepi"))
            instr = b;
        if (b->defaultAction() == w.window.debugToolBar()->action("reverse-stepi"))
            back = b;
    }
    ASSERT_TRUE(instr && back) << "no Instr / ◀ Instr in the PTX view";
    const std::uint64_t atAdd = w.last().stop.position;
    QTest::mouseClick(instr, Qt::LeftButton);
    ASSERT_TRUE(w.settle());
    EXPECT_EQ(w.last().warp->where.pc, pc + 1);
    EXPECT_EQ(ptx->currentPc(), pc + 1);
    EXPECT_TRUE(e->markersAtLine(ptx->lineOf(pc + 1) - 1) & (1 << BreakpointMargin::CurrentLineMarker));
    EXPECT_FALSE(e->markersAtLine(addLine - 1) & (1 << BreakpointMargin::CurrentLineMarker));
    QTest::mouseClick(back, Qt::LeftButton);
    ASSERT_TRUE(w.settle());
    EXPECT_EQ(w.last().warp->where.pc, pc);
    EXPECT_EQ(w.last().stop.position, atAdd);
    EXPECT_EQ(ptx->currentPc(), pc);

    // Removed from the Breakpoints dock: the dot goes, and Continue runs past the add.
    tree->setCurrentItem(tree->topLevelItem(0));
    w.window.findChild<BreakpointsView*>()->findChild<QPushButton*>()->click();
    ASSERT_TRUE(w.settle());
    EXPECT_FALSE(ptx->margin()->has(addLine));
    EXPECT_TRUE(w.last().breakpoints.empty());
    ASSERT_TRUE(w.press("continue"));
    EXPECT_EQ(w.last().stop.reason, "finished");
    EXPECT_EQ(ptx->currentPc(), -1);

    w.debug->stopAction()->trigger();
    EXPECT_EQ(ptx->instructions(), 0) << "the listing outlives its debugger";
    EXPECT_TRUE(dock->isHidden());
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
    const int partial = w.lanes()->expressionColumn("partial(threadIdx.x)");
    ASSERT_GT(partial, 2);
    for (int t = 0; t < 32; ++t)
        EXPECT_EQ(w.lane(t, partial), 1920) << "lane " << t;
    w.debug->stopAction()->trigger();
}

namespace {

// Counts how often a widget is shown.
class ShowCounter : public QObject {
public:
    int shows = 0;
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Show)
            ++shows;
        return QObject::eventFilter(o, e);
    }
};

// Pixels of `image` in columns [x0, x1) and rows [y0, y1) close to `colour`.
int pixelsLike(const QImage& image, int x0, int x1, int y0, int y1, QColor colour)
{
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(image.height(), y1); ++y)
        for (int x = std::max(0, x0); x < std::min(image.width(), x1); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green())
                    + std::abs(c.blue() - colour.blue())
                < 60;
        }
    return n;
}

} // namespace

// Stopped at a breakpoint's line, the breakpoint's dot and the current line's arrow are
// both drawn (each in its margin, as the editor shows them); debug commands answered at
// once never flash the run's progress bar; Help › Keyboard shortcuts lists the debug
// toolbar's keys as the toolbar defines them.
TEST(DebuggerWindow, DotAndArrowBothShowAndCommandsDoNotFlashProgress)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.window.openDocument(QString(KW_SAMPLES_DIR) + "/reduction_shared.kwb"));
    const int addition = w.line("partial[tid] += partial[tid + stride]");
    ASSERT_GT(addition, 0);
    w.clickMargin(addition);
    ASSERT_TRUE(w.window.breakpointMargin()->has(addition));

    ShowCounter progressShown;
    const QList<QProgressBar*> bars = w.window.statusBar()->findChildren<QProgressBar*>();
    ASSERT_FALSE(bars.isEmpty());
    for (QProgressBar* bar : bars)
        bar->installEventFilter(&progressShown);

    QSignalSpy started(w.debug, &DebugController::started);
    w.debug->debugAction()->trigger();
    ASSERT_TRUE(started.wait(120000)) << "the debug session did not open";
    ASSERT_TRUE(w.settle());
    const int shownOpening = progressShown.shows; // opening compiles: it may take long enough to show
    ASSERT_TRUE(w.press("continue"));
    ASSERT_EQ(w.last().stop.reason, "breakpoint");
    for (int i = 0; i < 4; ++i)
        ASSERT_TRUE(w.press("stepi"));
    ASSERT_TRUE(w.press("reverse-step"));
    ASSERT_EQ(w.window.breakpointMargin()->currentLine(), addition);
    QTest::qWait(50);
    EXPECT_EQ(progressShown.shows, shownOpening) << "a debug command flashed the progress bar";

    // The line's row in the editor: the dot in the markers' margin, the arrow in its own.
    CodeEditor* e = w.window.editor();
    int x = 0;
    std::vector<int> left(5);
    for (int m = 0; m < 5; ++m) {
        left[m] = x;
        x += int(e->SendScintilla(QsciScintilla::SCI_GETMARGINWIDTHN, static_cast<unsigned long>(m)));
    }
    const int arrowWidth = e->marginWidth(BreakpointMargin::ArrowMargin);
    ASSERT_GT(arrowWidth, 0) << "the arrow's margin is open while debugging";
    const long pos = e->positionFromLineIndex(addition - 1, 0);
    const int y = int(e->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos));
    const int h = e->textHeight(addition - 1);
    const QImage shot = e->viewport()->grab().toImage();
    EXPECT_GT(pixelsLike(shot, left[1], left[1] + e->marginWidth(1), y, y + h, QColor("#d32f2f")), 10)
        << "no breakpoint dot on the stopped line";
    EXPECT_GT(pixelsLike(shot, left[4], left[4] + arrowWidth, y, y + h, QColor("#f9a825")), 10)
        << "no arrow on the stopped line";
    EXPECT_EQ(pixelsLike(shot, left[4], left[4] + arrowWidth, y + 2 * h, y + 3 * h, QColor("#f9a825")), 0)
        << "an arrow on another line";

    // Help › Keyboard shortcuts: every motion of the debug toolbar, with its key.
    const QStringList keys = HelpMenu::shortcutLines(&w.window);
    for (QAction* a : w.window.debugToolBar()->motionActions()) {
        const QString line = w.window.debugToolBar()->windowTitle() + " › " + a->text() + '\t'
            + a->shortcut().toString(QKeySequence::NativeText);
        EXPECT_TRUE(keys.contains(line)) << line.toStdString() << " not in\n" << keys.join('\n').toStdString();
    }
    w.debug->stopAction()->trigger();
    EXPECT_EQ(e->marginWidth(BreakpointMargin::ArrowMargin), 0) << "the arrow's margin closes after debugging";
}

namespace {

// A kernel that spins for minutes on the simulator, as a document in the temporary folder.
QString longKernel(const QString& name)
{
    const QString path
        = QDir(QDir::tempPath()).filePath(QString("%1-%2.kwb").arg(name).arg(QCoreApplication::applicationPid()));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(R"({"format": "kernel-workbench", "version": 1,
 "source": "__global__ void spin(int *out, int n)\n{\n    int s = 0;\n    for (int i = 0; i < n; ++i)\n        s = s * 3 + i;\n    out[0] = s;\n}\n",
 "kernel": "spin",
 "buffers": [{"name": "out", "dtype": "i32", "count": "1", "init": {"kind": "zeros"}, "direction": "out"}],
 "args": [{"name": "out", "buffer": "out"}, {"name": "n", "type": "i32", "value": "2000000000"}],
 "launch": {"grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": "0"},
 "run": {"warmup": 0, "repeats": 0, "time_limit_s": 600}})");
    return path;
}

// One thread calls a device function that loops `n` times: a `next` over the call runs long.
QString churnKernel(const QString& name, int n)
{
    const QString path
        = QDir(QDir::tempPath()).filePath(QString("%1-%2.kwb").arg(name).arg(QCoreApplication::applicationPid()));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QString(R"({"format": "kernel-workbench", "version": 1,
 "source": "__device__ __noinline__ int churn(int s, int n)\n{\n    for (int i = 0; i < n; ++i)\n        s = s * 3 + i;\n    return s;\n}\n__global__ void spin(int *out, int n)\n{\n    int s = 1;\n    s = churn(s, n); // call\n    out[0] = s; // store\n}\n",
 "kernel": "spin",
 "buffers": [{"name": "out", "dtype": "i32", "count": "1", "init": {"kind": "zeros"}, "direction": "out"}],
 "args": [{"name": "out", "buffer": "out"}, {"name": "n", "type": "i32", "value": "%1"}],
 "launch": {"grid": [1, 1, 1], "block": [1, 1, 1], "shared_bytes": "0"},
 "run": {"warmup": 0, "repeats": 0, "time_limit_s": 600}})")
                .arg(n)
                .toUtf8());
    return path;
}

} // namespace

// A `continue` that runs long shows the run's progress bar and Stop, after the delay
// (never at once); Stop ends the runner, and the debugger with it.
TEST(DebuggerWindow, ALongContinueShowsProgressAfterADelay)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    const QString path = longKernel("kwb-long");
    ASSERT_FALSE(path.isEmpty());
    ASSERT_TRUE(w.debugWritten(path)) << "the debug session did not open";
    QProgressBar* bar = w.window.statusBar()->findChild<QProgressBar*>();
    ASSERT_TRUE(bar);
    QAction* stop = w.window.runController()->stopAction();
    w.window.debugToolBar()->action("continue")->trigger();
    QTest::qWait(200);
    EXPECT_FALSE(bar->isVisible()) << "shown before the delay";
    EXPECT_FALSE(stop->isEnabled());
    QTest::qWait(1000);
    EXPECT_TRUE(bar->isVisible()) << "a long continue shows no progress";
    EXPECT_TRUE(stop->isEnabled());
    QSignalSpy ended(w.debug, &DebugController::ended);
    stop->trigger();
    EXPECT_TRUE(ended.count() > 0 || ended.wait(20000)) << "Stop did not end the debugger";
    QFile::remove(path);
}

// Pause on the debug toolbar stops a running continue where the launch is: the stop is
// shown (the toolbar's line, the arrow on the loop's line, the Lanes dock's values), the
// debugger stays open, and Continue goes on from there to the next pause.
TEST(DebuggerWindow, PauseStopsARunningContinueAndShowsTheStop)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    const QString path = longKernel("kwb-pause");
    ASSERT_FALSE(path.isEmpty());
    ASSERT_TRUE(w.debugWritten(path)) << "the debug session did not open";
    DebugToolBar* bar = w.window.debugToolBar();
    QAction* pause = bar->pauseAction();
    EXPECT_FALSE(pause->isEnabled()) << "nothing runs at the entry";
    const int loop = w.line("s = s * 3 + i;");
    std::uint64_t before = w.last().stop.position;
    for (int round = 0; round < 2; ++round) {
        bar->action("continue")->trigger();
        QTest::qWait(1500); // several of the runner's slices
        EXPECT_FALSE(w.debug->idle()) << "the continue ended by itself";
        ASSERT_TRUE(pause->isEnabled()) << "no Pause while a continue runs";
        QSignalSpy replied(w.debug, &DebugController::replied);
        pause->trigger();
        ASSERT_TRUE(w.settle()) << "Pause did not stop the continue";
        EXPECT_TRUE(w.debug->debugging());
        EXPECT_FALSE(pause->isEnabled());
        EXPECT_GT(replied.count(), 0);
        EXPECT_EQ(w.last().stop.reason, "paused") << w.last().text.toStdString();
        EXPECT_GT(w.last().stop.position, before) << "round " << round;
        before = w.last().stop.position;
        EXPECT_TRUE(bar->stopLabel()->text().contains("paused")) << bar->stopLabel()->text().toStdString();
        ASSERT_TRUE(w.last().warp.has_value());
        const int line = int(w.last().warp->where.line);
        EXPECT_GE(line, loop - 1) << "paused outside the loop";
        EXPECT_LE(line, loop);
        EXPECT_EQ(w.window.breakpointMargin()->currentLine(), line) << "the arrow is not at the stop";
    }
    QSignalSpy ended(w.debug, &DebugController::ended);
    w.debug->stopAction()->trigger();
    EXPECT_TRUE(ended.count() > 0 || ended.wait(20000));
    QFile::remove(path);
}

// Pause stops a `next` over a call that loops long, not only a continue: the stop is
// shown inside the loop with its variables, and Next again goes on with the same `next`
// (the window sends it in slices) to the line after the call, with the value an
// uninterrupted run computes.
TEST(DebuggerWindow, PauseStopsALongNextAndNextGoesOn)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    const int n = 4000000;
    const QString path = churnKernel("kwb-pause-next", n);
    ASSERT_FALSE(path.isEmpty());
    ASSERT_TRUE(w.debugWritten(path)) << "the debug session did not open";
    const int call = w.line("// call");
    for (int i = 0; i < 5 && w.last().warp && int(w.last().warp->where.line) != call; ++i)
        ASSERT_TRUE(w.press("next"));
    ASSERT_TRUE(w.last().warp.has_value());
    ASSERT_EQ(int(w.last().warp->where.line), call);
    DebugToolBar* bar = w.window.debugToolBar();
    QAction* pause = bar->pauseAction();
    bar->action("next")->trigger();
    QTest::qWait(700); // a few of the runner's slices
    ASSERT_FALSE(w.debug->idle()) << "the next ended by itself: lengthen the loop";
    ASSERT_TRUE(pause->isEnabled()) << "no Pause while a next runs";
    pause->trigger();
    ASSERT_TRUE(w.settle()) << "Pause did not stop the next";
    EXPECT_EQ(w.last().stop.reason, "paused") << w.last().text.toStdString();
    ASSERT_TRUE(w.last().warp.has_value());
    const int loop = w.line("s = s * 3 + i;");
    const int line = int(w.last().warp->where.line);
    EXPECT_GE(line, loop - 1) << "paused outside churn's loop";
    EXPECT_LE(line, loop);
    const auto& locals = w.last().locals;
    EXPECT_TRUE(std::any_of(locals.begin(), locals.end(), [](const DebugLocal& l) { return l.name == "i"; }))
        << "churn's loop counter is not shown";
    // Next again: the same next goes on, in slices, to the line after the call.
    ASSERT_TRUE(w.press("next"));
    EXPECT_EQ(w.last().stop.reason, "step") << w.last().text.toStdString();
    ASSERT_TRUE(w.last().warp.has_value());
    EXPECT_EQ(int(w.last().warp->where.line), w.line("// store"));
    std::uint32_t host = 1;
    for (std::uint32_t i = 0; i < std::uint32_t(n); ++i)
        host = host * 3 + i;
    const auto& after = w.last().locals;
    const auto s = std::find_if(after.begin(), after.end(), [](const DebugLocal& l) { return l.name == "s"; });
    ASSERT_NE(s, after.end());
    ASSERT_TRUE(s->texts.at(0).has_value());
    EXPECT_EQ(s->texts[0]->toStdString(), std::to_string(std::int32_t(host)));
    QSignalSpy ended(w.debug, &DebugController::ended);
    w.debug->stopAction()->trigger();
    EXPECT_TRUE(ended.count() > 0 || ended.wait(20000));
    QFile::remove(path);
}

// Pause stops a reverse motion too, as the window sends it in slices: ◀ Continue from far
// into the long loop runs the launch again from its start; paused, it shows where the
// run again has come (between the breakpoint and where it began), and ◀ Continue again
// goes on with the same search to the breakpoint's hit, as it arrives uninterrupted.
TEST(DebuggerWindow, PauseStopsAReverseContinueAndItGoesOn)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    const QString path = longKernel("kwb-pause-back");
    ASSERT_FALSE(path.isEmpty());
    ASSERT_TRUE(w.debugWritten(path)) << "the debug session did not open";
    const int first = w.line("int s = 0;");
    ASSERT_GT(first, 0);
    w.clickMargin(first);
    ASSERT_TRUE(w.settle());
    ASSERT_TRUE(w.press("continue"));
    ASSERT_EQ(w.last().stop.reason, "breakpoint");
    const std::uint64_t hit = w.last().stop.position;
    DebugToolBar* bar = w.window.debugToolBar();
    QAction* pause = bar->pauseAction();
    // Far into the loop, where no breakpoint is.
    bar->action("continue")->trigger();
    QTest::qWait(2500);
    ASSERT_TRUE(pause->isEnabled());
    pause->trigger();
    ASSERT_TRUE(w.settle());
    ASSERT_EQ(w.last().stop.reason, "paused");
    const std::uint64_t far = w.last().stop.position;
    ASSERT_GT(far, hit + (std::uint64_t(1) << 20)) << "the continue did not run far";

    bar->action("reverse-continue")->trigger();
    QTest::qWait(700); // a few of the runner's slices
    ASSERT_FALSE(w.debug->idle()) << "the reverse-continue ended by itself: run further first";
    ASSERT_TRUE(pause->isEnabled()) << "no Pause while a reverse-continue runs";
    pause->trigger();
    ASSERT_TRUE(w.settle()) << "Pause did not stop the reverse-continue";
    EXPECT_TRUE(w.debug->debugging());
    EXPECT_FALSE(pause->isEnabled());
    EXPECT_EQ(w.last().stop.reason, "paused") << w.last().text.toStdString();
    EXPECT_GT(w.last().stop.position, hit);
    EXPECT_LT(w.last().stop.position, far);
    EXPECT_TRUE(w.last().stop.message.contains("reverse-continue again goes on"))
        << w.last().stop.message.toStdString();
    ASSERT_TRUE(w.last().warp.has_value());
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), int(w.last().warp->where.line));

    ASSERT_TRUE(w.press("reverse-continue"));
    EXPECT_EQ(w.last().stop.reason, "breakpoint") << w.last().text.toStdString();
    EXPECT_EQ(w.last().stop.position, hit);
    EXPECT_EQ(w.window.breakpointMargin()->currentLine(), first);
    QSignalSpy ended(w.debug, &DebugController::ended);
    w.debug->stopAction()->trigger();
    EXPECT_TRUE(ended.count() > 0 || ended.wait(20000));
    QFile::remove(path);
}
