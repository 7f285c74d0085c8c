// Opens a document in the real window on the simulator, does one thing a user does with
// it and saves the window (run under Xvfb at the screen size wanted):
//   walk_demo DOCUMENT PICTURE.png open|compile|run|racecheck [STEP]
// open: as opened (a document from elsewhere shows the trust bar); compile: a compile
// (an error shows on its line and in the banner); run: a run; racecheck: Run > Check >
// racecheck; STEP (1.1) is chosen in a document's list of steps first. Settings go to Qt's test locations, never the user's (DemoWindow.hpp).
#include "DemoWindow.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "StepListPanel.hpp"
#include "StepTree.hpp"
#include "TrustBar.hpp"

#include <QAction>
#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <cstdio>
#include <cstring>

using namespace kw;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    if (argc < 4) {
        std::fprintf(stderr, "usage: walk_demo DOCUMENT PICTURE.png open|compile|run|racecheck [STEP]\n");
        return 2;
    }
    const auto opened = demo::openWindow();
    if (!opened || !opened->openDocument(QString::fromLocal8Bit(argv[1])))
        return 1;
    MainWindow& window = *opened;
    window.launchPanel()->setCurrentDevice("sim");
    QTest::qWait(300);
    const char* what = argv[3];
    if (argc > 4)
        if (const auto path = StepTree::parse(argv[4]))
            window.stepList()->selectPath(*path);
    // Anything but looking at it needs the document trusted, as a user does with the bar.
    if (std::strcmp(what, "open") != 0 && window.trustBar()->isVisible()) {
        window.trustBar()->trustButton()->click();
        QTest::qWait(300);
    }
    QSignalSpy ran(&window, &MainWindow::runCompleted);
    QSignalSpy compiled(&window, &MainWindow::compileCompleted);
    QSignalSpy failed(window.runner(), &RunnerClient::jobFailed);
    if (std::strcmp(what, "compile") == 0) {
        window.compile();
        compiled.wait(60000);
    } else if (std::strcmp(what, "run") == 0) {
        window.run();
        ran.wait(120000) || failed.count() > 0;
    } else if (std::strcmp(what, "racecheck") == 0) {
        QAction* check = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text().contains("racecheck"))
                check = a;
        if (!check)
            return 1;
        check->trigger();
        ran.wait(120000);
    }
    QTest::qWait(800);
    std::printf(window.grab().save(argv[2]) ? "saved %s\n" : "could not save %s\n", argv[2]);
    return 0;
}
