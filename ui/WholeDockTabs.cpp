#include "WholeDockTabs.hpp"

#include <QChildEvent>
#include <QMainWindow>
#include <QTabBar>

namespace kw {

WholeDockTabs::WholeDockTabs(QMainWindow* window)
    : QObject(window)
{
    window->installEventFilter(this);
}

// The window makes a tab bar when docks are first tabified and sets it to elide after
// making it: by the time the bar is polished (first shown) that setting is in place.
bool WholeDockTabs::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ChildPolished)
        if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child())) {
            bar->setElideMode(Qt::ElideNone);
            bar->setUsesScrollButtons(true);
        }
    return QObject::eventFilter(watched, event);
}

} // namespace kw
