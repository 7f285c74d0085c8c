// Runs samples/mandelbrot.kwb twice on the simulator (max_iter 128, then 32), compares
// the two runs in the Run history dock and saves the window, then opens the user guide
// over it and saves the screen (run under Xvfb at the screen size wanted):
//   history_help_demo COMPARE.png HELP.png
// Settings and run history go to Qt's test locations, never the user's.
#include "DemoWindow.hpp"
#include "HelpMenu.hpp"
#include "HelpViewer.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunComparison.hpp"
#include "RunHistoryPanel.hpp"
#include "WorkbenchDocument.hpp"
#include "views/HeatMap.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace kw;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: history_help_demo COMPARE.png HELP.png\n");
        return 2;
    }
    const auto opened = demo::openWindow();
    QTemporaryDir dir;
    const QString doc = dir.filePath("mandelbrot.kwb");
    if (!QFile::copy(QString(KW_DEMO_SAMPLES) + "/mandelbrot.kwb", doc))
        return 1;

    if (!opened || !opened->openDocument(doc))
        return 1;
    MainWindow& window = *opened;
    window.trustCurrentDocument(); // the sample's copy, outside the samples' folder
    window.launchPanel()->setCurrentDevice("sim");
    auto run = [&] {
        QSignalSpy done(&window, &MainWindow::runCompleted);
        window.run();
        return done.wait(120000);
    };
    if (!run())
        return 1;
    Document changed = window.document()->document();
    for (auto& [name, value] : changed.variables)
        if (name == "max_iter")
            value = "32";
    window.document()->edit(DocumentPart::Variables, changed);
    if (!run())
        return 1;

    auto* history = window.findChild<QDockWidget*>("runHistoryDock");
    if (!history)
        return 1;
    history->show();
    history->raise();
    window.resizeDocks({history}, {430}, Qt::Vertical);
    RunComparison* compare = window.runHistoryPanel()->comparison();
    window.runHistoryPanel()->compareButton()->click();
    compare->tabs()->setCurrentIndex(2); // Output difference
    HeatMap* map = compare->differenceMap();
    if (!map->isReady())
        QSignalSpy(map, &HeatMap::updated).wait(10000);
    QTest::qWait(500);
    window.grab().save(argv[1]);

    window.helpMenu()->showHelp("getting-started.md");
    HelpViewer* viewer = window.helpMenu()->viewer();
    viewer->setGeometry(170, 40, 1020, 690);
    if (!QTest::qWaitForWindowExposed(viewer))
        return 1;
    QTest::qWait(500);
    app.primaryScreen()->grabWindow(0).save(argv[2]);
    return 0;
}
