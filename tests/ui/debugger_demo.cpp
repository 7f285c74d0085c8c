// Opens samples/reduction_shared.kwb in the window, places a breakpoint on the
// addition, debugs on the simulator through the real runner, continues to the
// breakpoint, runs its warp to the line's store (six instructions) and saves a screenshot with the Lanes and Shared
// memory docks, or the PTX view in front of them (run under Xvfb at the screen size wanted):
//   debugger_demo OUT.png [--presentation] [--ptx]
#include "CodeEditor.hpp"
#include "DemoWindow.hpp"
#include "MainWindow.hpp"
#include "debugger/BreakpointMargin.hpp"
#include "debugger/DebugController.hpp"
#include "debugger/DebugToolBar.hpp"
#include "debugger/LanesView.hpp"
#include "debugger/PtxView.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>

#include <cstdio>

using namespace kw;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: debugger_demo OUT.png [--presentation] [--ptx]\n");
        return 2;
    }
    const auto opened = demo::openWindow();
    if (!opened)
        return 1;
    MainWindow& window = *opened;
    if (!window.openDocument(QString(KW_DEMO_SAMPLES) + "/reduction_shared.kwb"))
        return 1;
    const QStringList lines = window.editor()->text().split('\n');
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains("partial[tid] += partial[tid + stride]"))
            window.breakpointMargin()->toggle(i + 1);
    const QStringList options = QApplication::arguments().mid(2);
    if (options.contains("--presentation"))
        window.setPresentationMode(true);

    DebugController* debug = window.debugController();
    auto settle = [&] {
        QSignalSpy replied(debug, &DebugController::replied);
        while (!debug->idle())
            if (!replied.wait(60000))
                return false;
        return true;
    };
    QSignalSpy started(debug, &DebugController::started);
    debug->debugAction()->trigger();
    if (!started.wait(120000) || !settle())
        return 1;
    auto* lanes = window.findChild<LanesView*>();
    for (const char* e : {"partial(tid)", "partial(tid + stride)"})
        lanes->addExpression(e);
    window.debugToolBar()->action("continue")->trigger();
    if (!settle())
        return 1;
    // On the breakpoint's line to its store: the registers hold what each lane adds.
    for (int i = 0; i < 6; ++i) {
        window.debugToolBar()->action("stepi")->trigger();
        if (!settle())
            return 1;
    }
    if (options.contains("--ptx"))
        if (auto* dock = qobject_cast<QDockWidget*>(window.debugPtxView()->parentWidget()))
            dock->raise();
    QTest::qWait(1500); // the last layout pass, the live check's verdict
    if (!window.grab().save(argv[1]))
        return 1;
    std::printf("saved %s at %dx%d, stopped at [%llu] %s\n", argv[1], window.width(), window.height(),
                static_cast<unsigned long long>(debug->lastReply().stop.position),
                qPrintable(debug->lastReply().stop.reason));
    debug->stop();
    return 0;
}
