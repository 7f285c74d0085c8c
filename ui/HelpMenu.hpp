#pragma once
// The Help menu: the keyboard shortcuts of every action in the window's menus and of the
// window's own keys on its toolbars (the debugger's), the
// documents of docs/ (opened with the desktop's viewer), and About.
#include <QMenu>

class QMainWindow;

namespace kw {

class HelpMenu : public QMenu {
    Q_OBJECT
public:
    explicit HelpMenu(QMainWindow* window);

    // "Run\tF5, Ctrl+R" lines for the actions of the window's menu bar that have keys,
    // then those of the window's toolbars that answer keys without a menu ("Debug › Step\tF7").
    static QStringList shortcutLines(const QMainWindow* window);
    // Where the documentation lives: installed beside the program, else the source tree's docs/.
    static QString docsDir();
    void showShortcuts();

private:
    QMainWindow* window_;
};

} // namespace kw
