#pragma once
// The Help menu: the user guide (help/, shown in HelpViewer), the keyboard shortcuts of
// every action in the window's menus and of the window's own keys on its toolbars (the
// debugger's), and About. The guide's getting-started page opens by itself on the first start.
#include <QMenu>

class QMainWindow;

namespace kw {
class HelpViewer;
}

namespace kw {

class HelpMenu : public QMenu {
    Q_OBJECT
public:
    explicit HelpMenu(QMainWindow* window);

    // "Run\tF5, Ctrl+R" lines for the actions of the window's menu bar that have keys,
    // then those of the window's toolbars that answer keys without a menu ("Debug › Step\tF7").
    static QStringList shortcutLines(const QMainWindow* window);
    void showShortcuts();
    // Opens the user guide at a page ("checks.md"); the viewer is made on first use.
    void showHelp(const QString& page);
    // The getting-started page, the first time the program starts (a setting remembers it).
    void showGettingStartedOnce();
    HelpViewer* viewer() const { return viewer_; } // null until the help was first opened

private:
    QMainWindow* window_;
    HelpViewer* viewer_ = nullptr;
};

} // namespace kw
