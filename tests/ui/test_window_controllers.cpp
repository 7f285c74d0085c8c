// The window's two controllers through its menus: DocumentController's File and
// Samples menus and RunController's Run menu hold their actions and do what they did
// before (a sample opens, Run runs on the simulator through `kwb-run serve`), and
// Edit > Undo panel edit undoes an edit of the document made in a panel.
#include "DocumentController.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunController.hpp"
#include "RunHistory.hpp"
#include "RunnerClient.hpp"
#include "WorkbenchDocument.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"
#include "views/ResultsPanel.hpp"

#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace kw;

namespace {

QMenu* menu(const MainWindow& w, const QString& title)
{
    for (QAction* a : w.menuBar()->actions())
        if (a->menu() && QString(a->text()).remove('&') == title)
            return a->menu();
    return nullptr;
}

QAction* item(QMenu* m, const QString& text)
{
    if (!m)
        return nullptr;
    for (QAction* a : m->actions())
        if (QString(a->text()).remove('&') == text)
            return a;
    return nullptr;
}

class WindowControllers : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        window_ = std::make_unique<MainWindow>(test::windowOptions());
        window_->resize(1366, 768);
        window_->show();
    }
    bool runnerReady()
    {
        QSignalSpy devices(window_->runner(), &RunnerClient::devicesChanged);
        return devices.count() > 0 || devices.wait(20000);
    }

    test::TestLocations locations_{"window-controllers"};
    std::unique_ptr<MainWindow> window_;
};

} // namespace

TEST_F(WindowControllers, EachControllerRegistersItsMenu)
{
    QMenu* file = menu(*window_, "File");
    ASSERT_NE(file, nullptr);
    for (const char* name : {"New", "Open…", "Open Recent", "Save", "Save As…", "Quit"})
        EXPECT_NE(item(file, name), nullptr) << name;
    ASSERT_NE(menu(*window_, "Samples"), nullptr);
    EXPECT_NE(item(menu(*window_, "Samples"), "add vectors small"), nullptr);
    QMenu* run = menu(*window_, "Run");
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(item(run, "Run"), window_->runAction());
    EXPECT_EQ(item(run, "Compile"), window_->compileAction());
    EXPECT_NE(item(run, "Stop"), nullptr);
    EXPECT_EQ(item(run, "Profile per line (simulator)"), window_->profileAction());
    EXPECT_NE(item(run, "Check"), nullptr);
    QMenu* edit = menu(*window_, "Edit");
    ASSERT_NE(edit, nullptr);
    EXPECT_EQ(item(edit, "Undo panel edit"), window_->undoAction());
    EXPECT_EQ(item(edit, "Redo panel edit"), window_->redoAction());
    EXPECT_FALSE(window_->undoAction()->isEnabled()) << "nothing to undo in a new document";
    // The menus come in the order they always had.
    QStringList titles;
    for (QAction* a : window_->menuBar()->actions())
        titles << QString(a->text()).remove('&');
    EXPECT_EQ(titles.mid(0, 5), (QStringList{"File", "Samples", "Edit", "Run", "View"}));
}

TEST_F(WindowControllers, ASampleOpensFromTheSamplesMenuAndRunsFromTheRunMenu)
{
    ASSERT_TRUE(runnerReady()) << "kwb-run serve did not list its devices";
    QAction* sample = item(menu(*window_, "Samples"), "add vectors small");
    ASSERT_NE(sample, nullptr);
    sample->trigger();
    EXPECT_TRUE(window_->documentPath().endsWith("add_vectors_small.kwb")) << window_->documentPath().toStdString();
    EXPECT_EQ(window_->currentDocument().kernel, "add_vectors");
    EXPECT_TRUE(window_->runAction()->isEnabled()) << "a shipped sample is trusted";
    window_->launchPanel()->setCurrentDevice("sim");
    ASSERT_EQ(window_->launchPanel()->currentDevice(), "sim");

    QSignalSpy ran(window_.get(), &MainWindow::runCompleted);
    item(menu(*window_, "Run"), "Run")->trigger();
    ASSERT_TRUE(ran.wait(120000));
    const RunResult r = ran.at(0).at(0).value<RunResult>();
    EXPECT_TRUE(r.ok) << (r.fault ? r.fault->message : "");
    EXPECT_EQ(r.device.id, "sim");
    ASSERT_TRUE(window_->resultsPanel()->result());
    EXPECT_EQ(window_->resultsPanel()->result()->buffers.size(), 3u);
    EXPECT_EQ(window_->runHistory()->entries().size(), 1u);

    // File > New gives the starter document, with no history of the sample's edits.
    item(menu(*window_, "File"), "New")->trigger();
    EXPECT_TRUE(window_->documentPath().isEmpty());
    EXPECT_EQ(window_->currentDocument().kernel, "scale");
    EXPECT_TRUE(window_->runHistory()->entries().empty()) << "nothing of the previous document stays";
    EXPECT_EQ(window_->document()->undoStack()->count(), 0);
}

TEST_F(WindowControllers, EditUndoUndoesAPanelEditAndTheModifiedMarkFollows)
{
    EXPECT_FALSE(window_->isModified());
    QLineEdit* grid = nullptr;
    for (QLineEdit* e : window_->launchPanel()->findChildren<QLineEdit*>())
        if (e->text() == "cdiv(n, block)")
            grid = e;
    ASSERT_NE(grid, nullptr);
    grid->selectAll();
    QTest::keyClicks(grid, "7");
    EXPECT_EQ(window_->currentDocument().launch.grid[0], "7");
    EXPECT_TRUE(window_->isModified());
    EXPECT_TRUE(window_->isWindowModified());
    ASSERT_TRUE(window_->undoAction()->isEnabled());
    EXPECT_EQ(window_->undoAction()->text(), "Undo edit of the launch");

    window_->undoAction()->trigger();
    EXPECT_EQ(grid->text(), "cdiv(n, block)");
    EXPECT_EQ(window_->currentDocument().launch.grid[0], "cdiv(n, block)");
    EXPECT_FALSE(window_->isModified());
    EXPECT_FALSE(window_->isWindowModified());
    EXPECT_TRUE(window_->redoAction()->isEnabled());
    window_->redoAction()->trigger();
    EXPECT_EQ(grid->text(), "7");
    EXPECT_TRUE(window_->isWindowModified());
}
