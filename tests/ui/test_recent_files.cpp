// Recent files: opening and saving put a file at the front of the list (no
// duplicates, capped), the list persists through Settings, the File menu shows it,
// an entry opens its file, and a file that has gone is dropped with a message.
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "MainWindow.hpp"
#include "Settings.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include <memory>

using namespace kw;

namespace {

class RecentFiles : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        ASSERT_TRUE(dir_.isValid());
        ASSERT_TRUE(Settings().recentFiles().isEmpty());
    }
    // A copy of a sample under a name of our own, as an absolute path.
    QString document(const QString& name)
    {
        const QString path = dir_.filePath(name + ".kwb");
        if (!QFileInfo::exists(path)) {
            EXPECT_TRUE(QFile::copy(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", path));
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        }
        return QFileInfo(path).absoluteFilePath();
    }
    std::unique_ptr<MainWindow> window() { return std::make_unique<MainWindow>(test::windowOptions()); }
    static QStringList menuEntries(const MainWindow& w)
    {
        QStringList out;
        for (QAction* a : w.recentMenu()->actions())
            if (!a->isSeparator())
                out << a->text();
        return out;
    }
    static QAction* entry(const MainWindow& w, const QString& path)
    {
        for (QAction* a : w.recentMenu()->actions())
            if (a->text() == path)
                return a;
        return nullptr;
    }

    test::TestLocations locations_{"recent"};
    QTemporaryDir dir_;
};

} // namespace

TEST_F(RecentFiles, TheSettingsAreTheTestOnes)
{
    // Guards the rest: nothing here may write into the user's real configuration.
    EXPECT_TRUE(QSettings().fileName().contains(".qttest")) << QSettings().fileName().toStdString();
    EXPECT_TRUE(QSettings().fileName().contains("KernelWorkbenchTests-recent-TheSettingsAreTheTestOnes"));
}

TEST_F(RecentFiles, OpeningPutsTheFileFirstWithoutDuplicates)
{
    auto w = window();
    EXPECT_FALSE(w->recentMenu()->isEnabled()) << "nothing to show yet";
    const QString a = document("a"), b = document("b"), c = document("c");
    ASSERT_TRUE(w->openDocument(a));
    ASSERT_TRUE(w->openDocument(b));
    ASSERT_TRUE(w->openDocument(c));
    EXPECT_EQ(Settings().recentFiles(), (QStringList{c, b, a}));
    ASSERT_TRUE(w->openDocument(a));
    EXPECT_EQ(Settings().recentFiles(), (QStringList{a, c, b}));
    EXPECT_EQ(menuEntries(*w), (QStringList{a, c, b}));
    EXPECT_TRUE(w->recentMenu()->isEnabled());
}

TEST_F(RecentFiles, AFileThatFailsToOpenIsNotAdded)
{
    auto w = window();
    const QString bad = dir_.filePath("broken.kwb");
    QFile f(bad);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("not json at all");
    f.close();
    EXPECT_FALSE(w->openDocument(bad));
    EXPECT_TRUE(Settings().recentFiles().isEmpty());
    EXPECT_TRUE(menuEntries(*w).isEmpty());
}

TEST_F(RecentFiles, SavingAddsTheSavedFile)
{
    auto w = window();
    const QString a = document("a"), b = document("b");
    ASSERT_TRUE(w->openDocument(b));
    ASSERT_TRUE(w->openDocument(a));
    ASSERT_TRUE(w->openDocument(b));
    Settings().removeRecentFile(b); // so only the save can bring it back
    ASSERT_EQ(Settings().recentFiles(), QStringList{a});
    w->editor()->append("// changed\n");
    ASSERT_TRUE(w->save());
    EXPECT_EQ(Settings().recentFiles(), (QStringList{b, a}));
    EXPECT_EQ(menuEntries(*w), (QStringList{b, a}));
}

TEST_F(RecentFiles, TheListIsCapped)
{
    auto w = window();
    QStringList opened;
    for (int i = 0; i < Settings::maxRecent + 3; ++i) {
        opened.prepend(document(QString("doc%1").arg(i)));
        ASSERT_TRUE(w->openDocument(opened.first()));
    }
    const QStringList recent = Settings().recentFiles();
    EXPECT_EQ(recent.size(), Settings::maxRecent);
    EXPECT_EQ(recent, opened.mid(0, Settings::maxRecent)) << "the oldest fall off the end";
    EXPECT_EQ(menuEntries(*w).size(), Settings::maxRecent);
}

TEST_F(RecentFiles, TheListPersistsIntoTheNextWindow)
{
    const QString a = document("a"), b = document("b");
    {
        auto w = window();
        ASSERT_TRUE(w->openDocument(a));
        ASSERT_TRUE(w->openDocument(b));
    }
    QSettings().sync();
    auto next = window();
    EXPECT_EQ(menuEntries(*next), (QStringList{b, a}));
}

TEST_F(RecentFiles, AnEntryOpensItsFile)
{
    const QString a = document("a"), b = document("b");
    {
        auto w = window();
        ASSERT_TRUE(w->openDocument(a));
        ASSERT_TRUE(w->openDocument(b));
    }
    auto w = window();
    EXPECT_TRUE(w->documentPath().isEmpty());
    QAction* act = entry(*w, a);
    ASSERT_TRUE(act);
    act->trigger();
    EXPECT_EQ(w->documentPath(), a);
    EXPECT_TRUE(w->windowTitle().startsWith("a.kwb"));
    EXPECT_EQ(menuEntries(*w), (QStringList{a, b})) << "the opened file moves to the front";
}

TEST_F(RecentFiles, AMissingFileIsDroppedWithAMessage)
{
    const QString a = document("a"), gone = document("gone");
    auto w = window();
    ASSERT_TRUE(w->openDocument(gone));
    ASSERT_TRUE(w->openDocument(a));
    ASSERT_TRUE(QFile::remove(gone));
    QAction* act = entry(*w, gone);
    ASSERT_TRUE(act);
    act->trigger();
    EXPECT_EQ(w->documentPath(), a) << "the open document stays";
    EXPECT_EQ(Settings().recentFiles(), QStringList{a});
    EXPECT_EQ(menuEntries(*w), QStringList{a});
    EXPECT_TRUE(w->banner()->text().contains("gone.kwb"));
    EXPECT_TRUE(w->banner()->text().contains("no longer exists"));
}
