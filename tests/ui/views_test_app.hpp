#pragma once
// One QApplication per test executable, on the offscreen platform unless told otherwise.
#include <QApplication>

namespace kw::test {

inline QApplication& app()
{
    if (auto* existing = qobject_cast<QApplication*>(QCoreApplication::instance()))
        return *existing;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "views_test";
    static char* argv[] = {name, nullptr};
    // Never destroyed: a QApplication torn down during static destruction, after the
    // platform plugin's own teardown, crashes the process once any window was shown.
    static auto* instance = new QApplication(argc, argv);
    return *instance;
}

} // namespace kw::test
