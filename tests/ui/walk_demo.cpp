// Opens a document in the real window on the simulator, does one thing a user does with
// it and saves the window (run under Xvfb at the screen size wanted):
//   walk_demo DOCUMENT PICTURE.png open|compile|run|racecheck [STEP]
// open: as opened (a document from elsewhere shows the trust bar); compile: a compile
// (an error shows on its line and in the banner); run: a run; racecheck: Run > Check >
// racecheck; STEP (1.1) is chosen in a document's list of steps first, and after a run
// again, so that the results show the buffers after it. Settings go to Qt's test
// locations, never the user's (DemoWindow.hpp).
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
#include <optional>

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
    const auto step = argc > 4 ? StepTree::parse(argv[4]) : std::nullopt;
    if (step)
        window.stepList()->selectPath(*step);
    // Anything but looking at it needs the document trusted, as a user does with the bar.
    if (std::strcmp(what, "open") != 0 && window.trustBar()->isVisible()) {
        window.trustBar()->trustButton()->click();
        QTest::qWait(300);
    }
    QSignalSpy ran(&window, &MainWindow::runCompleted);
    QSignalSpy compiled(&window, &MainWindow::compileCompleted);
    QSignalSpy failed(window.runner(), &RunnerClient::jobFailed);
    // Done when the window shows the outcome, or the runner gave the job up.
    const auto finished = [&](QSignalSpy& done, int ms) {
        return QTest::qWaitFor([&] { return done.count() > 0 || failed.count() > 0; }, ms);
    };
    bool done = true;
    if (std::strcmp(what, "compile") == 0) {
        window.compile();
        done = finished(compiled, 60000);
    } else if (std::strcmp(what, "run") == 0) {
        window.run();
        done = finished(ran, 120000);
    } else if (std::strcmp(what, "racecheck") == 0) {
        QAction* check = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text().contains("racecheck"))
                check = a;
        if (!check)
            return 1;
        check->trigger();
        done = finished(ran, 120000);
    } else if (std::strcmp(what, "open") != 0) {
        std::fprintf(stderr, "walk_demo: %s is not one of open, compile, run, racecheck\n", what);
        return 2;
    }
    // A picture of a job half done or given up would pass for the window's normal look.
    if (!done) {
        std::fprintf(stderr, "walk_demo: %s of %s did not finish in time; no picture taken\n", what, argv[1]);
        return 1;
    }
    if (failed.count() > 0) {
        std::fprintf(stderr, "walk_demo: the runner failed the job: %s; no picture taken\n",
                     qPrintable(failed.first().at(1).toString()));
        return 1;
    }
    // Chosen again after a run, the step's results are shown: the buffers as it left them.
    if (step && ran.count() > 0)
        window.stepList()->selectPath(*step);
    QTest::qWait(800);
    if (!window.grab().save(argv[2])) {
        std::fprintf(stderr, "walk_demo: could not save %s\n", argv[2]);
        return 1;
    }
    std::printf("saved %s\n", argv[2]);
    return 0;
}
