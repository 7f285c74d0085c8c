#pragma once
// The main window as widget tests open it: the kwb-run built with the tests, no
// saved layout, and no autosave timer unless the test is about autosave.
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "views_test_app.hpp"

#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>

namespace kw::test {

inline MainWindow::Options windowOptions(bool autosave = false)
{
    MainWindow::Options o;
    o.restoreLayout = false;
    o.autosave = autosave;
    o.runnerProgram = QString(KW_BIN_DIR) + "/kwb-run";
    return o;
}

// The window at 1366x768 with a shipped sample open on the simulator, once its runner
// has said hello (`ready` says whether both happened).
struct SampleWindow {
    MainWindow window{windowOptions()};
    bool ready = false;
    explicit SampleWindow(const char* sample)
    {
        app();
        window.resize(1366, 768);
        window.show();
        QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
        ready = (devices.count() > 0 || devices.wait(20000))
            && window.openDocument(QString(KW_SAMPLES_DIR) + "/" + sample);
        window.launchPanel()->setCurrentDevice("sim");
    }
    // The Run menu's entry of this text (without its '&'), or null.
    QAction* runMenuEntry(const QString& text) const
    {
        for (QAction* top : window.menuBar()->actions())
            if (top->menu() && QString(top->text()).remove('&') == "Run")
                for (QAction* a : top->menu()->actions())
                    if (QString(a->text()).remove('&') == text)
                        return a;
        return nullptr;
    }
};

} // namespace kw::test
