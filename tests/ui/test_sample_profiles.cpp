// Every shipped sample profiled on the simulator through a real kwb-run, as a user
// does it from the Profile view: the rows are the sample's own source lines (under the
// name its source file has, matmul.cu for matmul), with their text beside them, the
// editor margin carries their costs, and a sample that touches memory offers a line to
// picture instead of saying that none does.
#include "CodeEditor.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "WorkbenchDocument.hpp"
#include "profile/AccessPicture.hpp"
#include "profile/ProfileMargin.hpp"
#include "profile/ProfileTableModel.hpp"
#include "profile/ProfileView.hpp"
#include "qstring_printer.hpp"
#include "run/ProfileFigures.hpp"
#include "test_window_options.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QSignalSpy>

using namespace kw;

namespace {

bool touchesMemory(const ProfileCounters& c)
{
    return c.global_ld_requests + c.global_st_requests + c.shared_ld_requests + c.shared_st_requests
        + c.local_ld_requests + c.local_st_requests + c.atomic_requests
        > 0;
}

} // namespace

TEST(SampleProfiles, EverySampleShowsItsOwnLinesCostsAndMemory)
{
    test::app();
    MainWindow window(test::windowOptions());
    window.resize(1366, 768);
    window.show();
    QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
    ASSERT_TRUE(devices.count() > 0 || devices.wait(20000)) << "kwb-run serve did not answer hello";

    const QStringList samples = QDir(KW_SAMPLES_DIR).entryList({"*.kwb"}, QDir::Files, QDir::Name);
    ASSERT_GE(samples.size(), 10);
    for (const QString& name : samples) {
        SCOPED_TRACE(name.toStdString());
        ASSERT_TRUE(window.openDocument(QString(KW_SAMPLES_DIR) + "/" + name));
        const std::string sourceName = window.document()->document().sourceName();
        QSignalSpy ran(&window, &MainWindow::runCompleted);
        emit window.profileView()->profileRequested(0, Dim3{0, 0, 0}, 0);
        ASSERT_TRUE(ran.wait(180000)) << "no result";
        const RunResult r = ran.at(0).at(0).value<RunResult>();
        ASSERT_TRUE(r.ok) << (r.fault ? r.fault->message : std::string("not ok"));
        ASSERT_TRUE(r.profile) << "no profile came back";

        // The kernel's lines are the editor's file, under the name the document gives it.
        const std::string mainFile = profileMainFile(*r.profile);
        EXPECT_TRUE(mainFile == sourceName || mainFile.ends_with("/" + sourceName))
            << mainFile << " is not " << sourceName;

        ProfileView* view = window.profileView();
        ASSERT_TRUE(view->hasProfile());
        const ProfileTableModel* model = view->model();
        ASSERT_GT(model->rowCount(), 0);
        const QStringList editorLines = window.editor()->text().split('\n');
        int ownRows = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const LineProfile& l = model->line(row);
            if (l.file != mainFile || l.line <= 0)
                continue;
            ++ownRows;
            // Labelled by its line number alone (the editor's own file), its text beside it.
            EXPECT_EQ(model->index(row, ProfileTableModel::LocationColumn).data().toString(), QString::number(l.line));
            ASSERT_LE(l.line, editorLines.size());
            EXPECT_EQ(model->index(row, ProfileTableModel::SourceColumn).data().toString(),
                      editorLines[l.line - 1].trimmed())
                << "line " << l.line;
            // The margin beside that line shows the same line's cost.
            EXPECT_FALSE(window.profileMargin()->textOf(l.line).isEmpty()) << "line " << l.line;
        }
        EXPECT_GT(ownRows, 0);
        EXPECT_TRUE(window.profileMargin()->isShown());
        const bool anyText = [&] {
            for (int row = 0; row < model->rowCount(); ++row)
                if (!model->index(row, ProfileTableModel::SourceColumn).data().toString().isEmpty())
                    return true;
            return false;
        }();
        EXPECT_TRUE(anyText) << "the Source column is empty";

        // Memory access: the lines that touch memory are offered for a picture.
        if (touchesMemory(r.profile->totals)) {
            EXPECT_GT(view->lineChooser()->count(), 0);
            EXPECT_GT(view->lineChooser()->currentData().toInt(), 0);
            EXPECT_FALSE(view->picture()->message().contains("No line of this profile touches memory"))
                << view->picture()->message();
        }
    }
}
