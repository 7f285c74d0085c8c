// An exercise in the window: File ▸ Open of a .kwx shows its statement in the Notes and
// its starter in the editor as an untitled document (never the reference); Exercise ▸
// Grade grades the editor's kernel through `kwb-run grade` on the simulator, the Grade
// dock lists the cases, and double-clicking a failed case moves the editor to the line
// of its first wrong write.
#include "CodeEditor.hpp"
#include "GradeController.hpp"
#include "GradeResultsView.hpp"
#include "MainWindow.hpp"
#include "WorkbenchDocument.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"

#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <gtest/gtest.h>

using namespace kw;

namespace {

const QString kExercise = QString(KW_SAMPLES_DIR) + "/../exercises/saxpy.kwx";

QString readText(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QString::fromUtf8(f.readAll());
}

class GradeWindow : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        window_ = std::make_unique<MainWindow>(test::windowOptions());
        window_->resize(1366, 768);
        window_->show();
    }
    test::TestLocations locations_{"grade-window"};
    std::unique_ptr<MainWindow> window_;
};

} // namespace

TEST_F(GradeWindow, OpeningAnExerciseShowsItsStatementAndStarter)
{
    GradeController* grades = window_->gradeController();
    ASSERT_NE(grades, nullptr);
    EXPECT_FALSE(grades->gradeAction()->isEnabled());
    ASSERT_TRUE(window_->openDocument(kExercise));
    const Document& doc = window_->document()->document();
    EXPECT_TRUE(doc.description.starts_with("Write the kernel `saxpy`")) << doc.description;
    EXPECT_EQ(doc.title, "SAXPY");
    EXPECT_NE(doc.source.find("// y[i] = a * x[i] + y[i] for every i < n"), std::string::npos) << doc.source;
    EXPECT_EQ(doc.source.find("a * x[i] + y[i];"), std::string::npos) << "the reference is never shown";
    EXPECT_EQ(window_->editor()->text().indexOf("a * x[i] + y[i];"), -1);
    EXPECT_TRUE(window_->document()->path().isEmpty()) << "saving never writes over the exercise";
    EXPECT_TRUE(grades->gradeAction()->isEnabled());
    EXPECT_TRUE(grades->exercise().endsWith("saxpy.kwx"));
    bool inMenu = false;
    for (QAction* a : window_->menuBar()->actions())
        if (a->menu() && QString(a->text()).remove('&') == "Exercise")
            inMenu = a->menu()->actions().contains(grades->gradeAction());
    EXPECT_TRUE(inMenu);
}

TEST_F(GradeWindow, GradeListsTheCasesAndAFailedCaseLeadsToItsLine)
{
    ASSERT_TRUE(window_->openDocument(kExercise));
    window_->editor()->setText(readText(QString(KW_TEST_DATA_DIR) + "/grade/saxpy/wrong.cu"));
    QSignalSpy graded(window_->gradeController(), &GradeController::graded);
    window_->gradeController()->grade();
    ASSERT_TRUE(graded.wait(120000));
    EXPECT_FALSE(graded.at(0).at(0).toBool());
    auto* table = window_->gradeView()->findChild<QTableWidget*>();
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->rowCount(), 11);
    int failed = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == "n=1023")
            failed = r;
    ASSERT_GE(failed, 0);
    EXPECT_EQ(table->item(failed, 2)->text(), "wrong");
    EXPECT_EQ(table->item(failed, 3)->text(), "5"); // the Line column
    EXPECT_TRUE(table->item(failed, 6)->text().contains("thread (254,0,0), line 5"))
        << table->item(failed, 6)->text().toStdString();
    window_->editor()->setCursorPosition(0, 0);
    emit table->cellDoubleClicked(failed, 0);
    int line = 0, column = 0;
    window_->editor()->getCursorPosition(&line, &column);
    EXPECT_EQ(line + 1, 5);

    // The reference solution passes every case.
    window_->editor()->setText(readText(QString(KW_TEST_DATA_DIR) + "/grade/saxpy/reference.cu"));
    window_->gradeController()->grade();
    ASSERT_TRUE(graded.wait(120000));
    EXPECT_TRUE(graded.at(1).at(0).toBool());
}
