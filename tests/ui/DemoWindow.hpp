#pragma once
// The window of a program that takes the docs' screenshots (run under Xvfb at the screen
// size wanted): Qt's test locations for settings and run history, never the user's; no
// saved layout; the build's own kwb-run as the runner; filling the screen; shown once the
// runner has listed its devices. Null when the runner never answered.
#include "MainWindow.hpp"
#include "RunnerClient.hpp"

#include <QApplication>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>

#include <memory>

namespace kw::demo {

inline std::unique_ptr<MainWindow> openWindow()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("KernelWorkbenchDemo"));
    MainWindow::Options options;
    options.restoreLayout = false;
    options.autosave = false;
    options.runnerProgram = QStringLiteral(KW_DEMO_BIN_DIR "/kwb-run");
    auto window = std::make_unique<MainWindow>(options);
    window->setGeometry(QApplication::primaryScreen()->availableGeometry());
    window->showMaximized();
    QSignalSpy devices(window->runner(), &RunnerClient::devicesChanged);
    if (!devices.wait(30000))
        return nullptr;
    return window;
}

} // namespace kw::demo
