#pragma once
// Keeps the names on a main window's dock tabs whole ("Call stack", "Breakpoints"), with
// scroll arrows where the tabs outgrow their row: Qt elides them, which in a narrow dock
// or in presentation mode's large font leaves "L…" and "Brea…", tabs nobody can tell apart.
#include <QObject>

class QMainWindow;

namespace kw {

class WholeDockTabs : public QObject {
public:
    explicit WholeDockTabs(QMainWindow* window);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace kw
