// The user guide: every page renders, every link between pages leads to a page, a
// missing page is an error the user sees, the names of menus, buttons, panels and tabs
// the pages quote exist in the window, the Help menu holds the guide and not the
// developer documents, and the getting-started page opens by itself once.
#include "HelpMenu.hpp"
#include "HelpPages.hpp"
#include "HelpViewer.hpp"
#include "MainWindow.hpp"
#include "Settings.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"

#include <QAbstractButton>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTabWidget>
#include <QTextBrowser>
#include <gtest/gtest.h>

#include <memory>

using namespace kw;

namespace {

QString plain(QString text) { return text.remove('&').trimmed(); }

// "File ▸ Open…" for every entry and submenu of the menu bar, and the menus' titles.
void collectMenu(const QMenu* menu, const QString& path, QSet<QString>& out)
{
    for (QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        const QString here = path + " ▸ " + plain(a->text());
        out << here;
        if (a->menu())
            collectMenu(a->menu(), here, out);
    }
}

struct WindowNames {
    QSet<QString> menus, menuPaths, buttons, panels, tabs;
};

WindowNames namesOf(const MainWindow& w)
{
    WindowNames n;
    for (QAction* top : w.menuBar()->actions())
        if (top->menu()) {
            n.menus << plain(top->text());
            collectMenu(top->menu(), plain(top->text()), n.menuPaths);
        }
    for (QAbstractButton* b : w.findChildren<QAbstractButton*>())
        n.buttons << plain(b->text());
    for (QAction* a : w.findChildren<QAction*>()) // the toolbars' buttons are actions
        n.buttons << plain(a->text()) << plain(a->iconText());
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        n.panels << plain(d->windowTitle());
    for (QTabWidget* t : w.findChildren<QTabWidget*>())
        for (int i = 0; i < t->count(); ++i)
            n.tabs << plain(t->tabText(i));
    return n;
}

} // namespace

TEST(Help, EveryPageRendersAsTextWithItsTitle)
{
    const QStringList pages = HelpPages::all();
    ASSERT_GE(pages.size(), 12) << pages.join(", ").toStdString();
    HelpViewer viewer;
    for (const QString& page : pages) {
        ASSERT_TRUE(viewer.openPage(page)) << page.toStdString();
        EXPECT_EQ(viewer.currentPage(), page);
        // The contents follow the page on show.
        if (page != HelpPages::contentsPage) {
            ASSERT_NE(viewer.contentsList()->currentItem(), nullptr);
            EXPECT_EQ(viewer.contentsList()->currentItem()->data(Qt::UserRole).toString(), page);
            EXPECT_TRUE(viewer.contentsList()->currentItem()->isSelected());
        }
        EXPECT_TRUE(viewer.error().isEmpty()) << viewer.error().toStdString();
        const QString text = viewer.browser()->toPlainText();
        const QString title = HelpPages::title(page);
        EXPECT_NE(title, page) << page.toStdString() << " has no title";
        EXPECT_TRUE(text.startsWith(title)) << page.toStdString() << ": " << text.left(80).toStdString();
        // Rendered, not shown as Markdown source.
        EXPECT_FALSE(text.contains("**")) << page.toStdString();
        EXPECT_FALSE(text.contains("](")) << page.toStdString();
        EXPECT_FALSE(text.contains("\n# ")) << page.toStdString();
        EXPECT_GT(text.size(), 200) << page.toStdString();
    }
}

TEST(Help, EveryLinkBetweenPagesLeadsToAPageAndEveryPageIsInTheContents)
{
    HelpViewer viewer;
    int followed = 0;
    for (const QString& page : HelpPages::all()) {
        for (const QString& link : HelpPages::links(page)) {
            if (link.startsWith("https:") || link.startsWith("http:"))
                continue;
            ASSERT_TRUE(viewer.openPage(page));
            viewer.followLink(QUrl(link));
            EXPECT_TRUE(viewer.error().isEmpty())
                << page.toStdString() << " → " << link.toStdString() << ": " << viewer.error().toStdString();
            EXPECT_EQ(viewer.currentPage(), QUrl(link).path()) << page.toStdString() << " → " << link.toStdString();
            ++followed;
        }
    }
    EXPECT_GT(followed, 15);
    const QStringList contents = HelpPages::contents();
    for (const QString& page : HelpPages::all())
        if (page != HelpPages::contentsPage)
            EXPECT_TRUE(contents.contains(page)) << page.toStdString() << " is not in the contents";
    EXPECT_EQ(contents.first(), HelpPages::gettingStartedPage);
    EXPECT_EQ(viewer.contentsList()->count(), contents.size());
}

TEST(Help, AMissingPageIsAnErrorTheUserSees)
{
    HelpViewer viewer;
    ASSERT_TRUE(viewer.openPage("checks.md"));
    viewer.followLink(QUrl("no-such-page.md"));
    EXPECT_EQ(viewer.currentPage(), "checks.md") << "the page on show stays";
    EXPECT_TRUE(viewer.error().contains("no-such-page.md")) << viewer.error().toStdString();
    EXPECT_FALSE(viewer.errorBar()->isHidden());
    EXPECT_FALSE(viewer.openPage("gone.md"));
    EXPECT_TRUE(viewer.error().contains("gone.md"));
    // A good link clears it.
    viewer.followLink(QUrl("debugger.md"));
    EXPECT_TRUE(viewer.error().isEmpty());
    EXPECT_TRUE(viewer.errorBar()->isHidden());
    // Back and Forward go through the pages shown.
    viewer.browser()->backward();
    EXPECT_EQ(viewer.currentPage(), "checks.md");
    EXPECT_FALSE(viewer.browser()->toPlainText().contains("**")) << "rendered again, not shown as Markdown";
    ASSERT_NE(viewer.contentsList()->currentItem(), nullptr);
    EXPECT_EQ(viewer.contentsList()->currentItem()->data(Qt::UserRole).toString(), "checks.md");
}

class HelpInTheWindow : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        window_ = std::make_unique<MainWindow>(test::windowOptions());
    }
    test::TestLocations locations_{"help"};
    std::unique_ptr<MainWindow> window_;
};

// The pages quote the window's names in a marked form: **Menu ▸ Entry**, the **Name**
// button, the **Name** panel, the **Name** tab, the **Name** menu. Each must exist.
TEST_F(HelpInTheWindow, EveryNameThePagesQuoteExistsInTheWindow)
{
    const WindowNames names = namesOf(*window_);
    struct Form {
        QRegularExpression pattern;
        const QSet<QString>* names;
        const char* kind;
    };
    const Form forms[] = {
        {QRegularExpression(R"(\*\*([^*\n]+ ▸ [^*\n]+)\*\*)"), &names.menuPaths, "menu entry"},
        {QRegularExpression(R"(\*\*([^*\n]+)\*\* buttons?\b)"), &names.buttons, "button"},
        {QRegularExpression(R"(\*\*([^*\n]+)\*\* panel)"), &names.panels, "panel"},
        {QRegularExpression(R"(\*\*([^*\n]+)\*\* tab\b)"), &names.tabs, "tab"},
        {QRegularExpression(R"(\*\*([^*\n]+)\*\* menu\b)"), &names.menus, "menu"},
    };
    int checked = 0;
    for (const QString& page : HelpPages::all()) {
        const QString text = HelpPages::text(page);
        for (const Form& f : forms)
            for (auto it = f.pattern.globalMatch(text); it.hasNext();) {
                const QString name = it.next().captured(1);
                ++checked;
                EXPECT_TRUE(f.names->contains(name)) << page.toStdString() << " names the " << f.kind << " \""
                                                     << name.toStdString() << "\", which the window does not have";
            }
    }
    EXPECT_GT(checked, 40) << "the pages quote the window's names in the marked form";
}

TEST_F(HelpInTheWindow, TheHelpMenuOpensTheGuideAndNoDeveloperDocuments)
{
    QMenu* help = window_->helpMenu();
    ASSERT_NE(help, nullptr);
    QStringList entries;
    QAction* guide = nullptr;
    for (QAction* a : help->actions()) {
        entries << plain(a->text());
        if (plain(a->text()) == "User guide")
            guide = a;
        EXPECT_EQ(a->menu(), nullptr) << "no submenu of documents";
    }
    EXPECT_FALSE(entries.join(' ').contains("format")) << entries.join(", ").toStdString();
    EXPECT_TRUE(entries.contains("Getting started")) << entries.join(", ").toStdString();
    ASSERT_NE(guide, nullptr);
    guide->trigger();
    HelpViewer* viewer = window_->helpMenu()->viewer();
    ASSERT_NE(viewer, nullptr);
    EXPECT_TRUE(viewer->isVisible());
    EXPECT_EQ(viewer->currentPage(), HelpPages::contentsPage);
}

TEST_F(HelpInTheWindow, GettingStartedOpensOnTheFirstStartOnly)
{
    EXPECT_FALSE(Settings().gettingStartedShown());
    window_->helpMenu()->showGettingStartedOnce();
    HelpViewer* viewer = window_->helpMenu()->viewer();
    ASSERT_NE(viewer, nullptr);
    EXPECT_TRUE(viewer->isVisible());
    EXPECT_EQ(viewer->currentPage(), HelpPages::gettingStartedPage);
    EXPECT_TRUE(Settings().gettingStartedShown());
    viewer->close();
    window_->helpMenu()->showGettingStartedOnce();
    EXPECT_FALSE(viewer->isVisible()) << "opened a second time";
    // The next start of the program, with the same settings.
    window_ = std::make_unique<MainWindow>(test::windowOptions());
    window_->helpMenu()->showGettingStartedOnce();
    EXPECT_EQ(window_->helpMenu()->viewer(), nullptr);
}
