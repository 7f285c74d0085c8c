#include "HelpMenu.hpp"

#include "HelpPages.hpp"
#include "HelpViewer.hpp"
#include "Settings.hpp"
#include "run/VersionReport.hpp"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace kw {

namespace {
// The actions of a menu and its submenus, with the menu path they sit under.
void collect(const QMenu* menu, const QString& path, QList<QPair<QString, QAction*>>& out)
{
    for (QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        const QString text = QString(a->text()).remove('&');
        if (a->menu())
            collect(a->menu(), path + text + " › ", out);
        else if (!a->shortcuts().isEmpty())
            out.append({path + text, a});
    }
}
} // namespace

HelpMenu::HelpMenu(QMainWindow* window)
    : QMenu(tr("&Help"), window)
    , window_(window)
{
    addAction(tr("&Getting started"), this, [this] { showHelp(HelpPages::gettingStartedPage); });
    addAction(tr("&User guide"), this, [this] { showHelp(HelpPages::contentsPage); });
    QAction* keys = addAction(tr("&Keyboard shortcuts"), this, &HelpMenu::showShortcuts);
    keys->setShortcut(QKeySequence::HelpContents);
    addSeparator();
    addAction(tr("&About Kernel Workbench"), this, [this] {
        QMessageBox::about(window_, tr("About Kernel Workbench"),
                           tr("<b>Kernel Workbench %1</b><p>Write, compile and run CUDA kernels on a GPU or on "
                              "the CPU simulator; see their output as plots, tables and timings.</p>"
                              "<p>F5 runs the kernel, F11 switches presentation mode, F1 lists the keys; Help ▸ "
                              "Getting started shows the way round.</p>"
                              "<p>Licence: %2.</p>")
                               .arg(QCoreApplication::applicationVersion(),
                                    QString::fromStdString(VersionReport::licence()).toHtmlEscaped()));
    });
}

void HelpMenu::showHelp(const QString& page)
{
    if (!viewer_)
        viewer_ = new HelpViewer(window_);
    viewer_->openPage(page); // a missing page is shown as an error in the viewer
    viewer_->show();
    viewer_->raise();
    viewer_->activateWindow();
}

void HelpMenu::showGettingStartedOnce()
{
    Settings settings;
    if (settings.gettingStartedShown())
        return;
    settings.setGettingStartedShown(true);
    showHelp(HelpPages::gettingStartedPage);
}

QStringList HelpMenu::shortcutLines(const QMainWindow* window)
{
    QList<QPair<QString, QAction*>> actions;
    for (QAction* top : window->menuBar()->actions())
        if (top->menu())
            collect(top->menu(), QString(top->text()).remove('&') + " › ", actions);
    // Keys of the window outside its menus (the debugger's motions): under the title of
    // the toolbar that holds them, as the toolbar defines them.
    for (QAction* a : window->actions()) {
        if (a->shortcuts().isEmpty()
            || std::any_of(actions.begin(), actions.end(), [a](const auto& listed) { return listed.second == a; }))
            continue;
        for (QObject* o : a->associatedObjects())
            if (auto* bar = qobject_cast<const QToolBar*>(o)) {
                actions.append({bar->windowTitle() + " › " + QString(a->text()).remove('&'), a});
                break;
            }
    }
    QStringList lines;
    for (const auto& [path, a] : actions) {
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        lines << path + '\t' + keys.join(", ");
    }
    return lines;
}

void HelpMenu::showShortcuts()
{
    QDialog dialog(window_);
    dialog.setWindowTitle(tr("Keyboard shortcuts"));
    auto* table = new QTableWidget(&dialog);
    const QStringList lines = shortcutLines(window_);
    // Keys the editor handles itself, beside the menus' ones.
    const QStringList editorKeys
        = {tr("Editor › Complete a name") + '\t'
               + QKeySequence(Qt::CTRL | Qt::Key_Space).toString(QKeySequence::NativeText),
           tr("Editor › Find next") + '\t' + QKeySequence(QKeySequence::FindNext).toString(QKeySequence::NativeText),
           tr("Editor › Zoom in / out") + '\t' + QKeySequence(QKeySequence::ZoomIn).toString(QKeySequence::NativeText)
               + " / " + QKeySequence(QKeySequence::ZoomOut).toString(QKeySequence::NativeText)};
    const QStringList all = lines + editorKeys;
    table->setColumnCount(2);
    table->setRowCount(int(all.size()));
    table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    for (int i = 0; i < all.size(); ++i) {
        const QStringList parts = all[i].split('\t');
        table->setItem(i, 0, new QTableWidgetItem(parts.value(0)));
        table->setItem(i, 1, new QTableWidgetItem(parts.value(1)));
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.resize(520, 480);
    dialog.exec();
}

} // namespace kw
