#pragma once
// The main window as widget tests open it: the kwb-run built with the tests, no
// saved layout, and no autosave timer unless the test is about autosave.
#include "MainWindow.hpp"

namespace kw::test {

inline MainWindow::Options windowOptions(bool autosave = false)
{
    MainWindow::Options o;
    o.restoreLayout = false;
    o.autosave = autosave;
    o.runnerProgram = QString(KW_BIN_DIR) + "/kwb-run";
    return o;
}

} // namespace kw::test
