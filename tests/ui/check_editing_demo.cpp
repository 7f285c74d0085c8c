// Runs samples/matmul.kwb on the simulator, then writes a check in
// the Checks tab among the run's views the way a user does (Add check, the buffer, the
// expected expression typed key by key) and saves the window (run under Xvfb at the
// screen size wanted):   check_editing_demo PICTURE.png
// Settings go to Qt's test locations, never the user's (DemoWindow.hpp).
#include "ChecksEditor.hpp"
#include "DemoWindow.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <cstdio>

using namespace kw;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: check_editing_demo PICTURE.png\n");
        return 2;
    }
    const auto opened = demo::openWindow();
    if (!opened || !opened->openDocument(QString(KW_DEMO_SAMPLES) + "/matmul.kwb"))
        return 1;
    MainWindow& window = *opened;
    window.launchPanel()->setCurrentDevice("sim");
    QSignalSpy done(&window, &MainWindow::runCompleted);
    window.run();
    if (!done.wait(120000))
        return 1;

    auto* checks = window.findChild<QDockWidget*>("checksDock");
    auto* editor = window.findChild<ChecksEditor*>();
    if (!checks || !editor)
        return 1;
    checks->show();
    checks->raise();
    QTest::qWait(200);
    QTest::mouseClick(editor->addButton(), Qt::LeftButton);
    QTest::qWait(100);
    editor->kindBox()->setCurrentIndex(0); // each element against an expression
    editor->bufferBox()->setCurrentText("C");
    QTest::qWait(100);
    editor->expectEdit()->clear();
    QTest::keyClicks(editor->expectEdit(), "K * x * y + undefined_name", Qt::NoModifier, 20);
    QTest::qWait(600);
    std::printf(window.grab().save(argv[1]) ? "saved %s\n" : "could not save %s\n", argv[1]);
    return 0;
}
