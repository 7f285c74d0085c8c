// File > Export…: the dialog proposes a folder beside the document for the chosen target,
// and exporting through the menu writes the program there; a folder that cannot be
// written is reported in the error banner.
#include "DocumentController.hpp"
#include "ErrorBanner.hpp"
#include "ExportDialog.hpp"
#include "MainWindow.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <gtest/gtest.h>

using namespace kw;
using exporting::ExportTarget;

namespace {

QAction* fileItem(const MainWindow& w, const QString& text)
{
    for (QAction* m : w.menuBar()->actions())
        if (m->menu() && QString(m->text()).remove('&') == "File")
            for (QAction* a : m->menu()->actions())
                if (QString(a->text()).remove('&') == text)
                    return a;
    return nullptr;
}

// Answers the next ExportDialog: picks the target at `index` and the folder, and presses Export.
class ExportDialogAnswer {
public:
    ExportDialogAnswer(int index, QString folder)
        : index_(index)
        , folder_(std::move(folder))
    {
        QTimer::singleShot(0, [this] { poll(); });
    }
    bool seen = false;
    QString proposed;

private:
    void poll()
    {
        auto* dialog = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            QTimer::singleShot(20, [this] { poll(); });
            return;
        }
        seen = true;
        proposed = dialog->findChild<QLineEdit*>("exportFolder")->text();
        dialog->findChild<QComboBox*>("exportTarget")->setCurrentIndex(index_);
        auto* folder = dialog->findChild<QLineEdit*>("exportFolder");
        folder->clear();
        folder->insert(folder_);
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    }
    int index_;
    QString folder_;
};

} // namespace

TEST(ExportDialog, ProposesAFolderBesideTheDocumentForTheTarget)
{
    ExportDialog dialog("/data/kernels/saxpy.kwb");
    auto* folder = dialog.findChild<QLineEdit*>("exportFolder");
    auto* target = dialog.findChild<QComboBox*>("exportTarget");
    ASSERT_TRUE(folder && target);
    EXPECT_EQ(dialog.target(), ExportTarget::Cupy);
    EXPECT_EQ(folder->text(), "/data/kernels/saxpy-cupy");
    target->setCurrentIndex(2);
    EXPECT_EQ(dialog.target(), ExportTarget::Cpp);
    EXPECT_EQ(dialog.folder(), "/data/kernels/saxpy-cpp");
    target->setCurrentIndex(1);
    EXPECT_EQ(dialog.target(), ExportTarget::Pycuda);
    // A folder the user typed stays when the target changes.
    folder->clear();
    QTest::keyClicks(folder, "/tmp/mine");
    target->setCurrentIndex(0);
    EXPECT_EQ(dialog.folder(), "/tmp/mine");
    folder->clear();
    QTest::keyClicks(folder, " ");
    EXPECT_FALSE(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
}

class ExportFromWindow : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        window_ = std::make_unique<MainWindow>(test::windowOptions());
        window_->resize(1366, 768);
        window_->show();
        ASSERT_TRUE(window_->documentController()->openDocument(QString(KW_SAMPLES_DIR) + "/add_vectors.kwb"));
    }
    test::TestLocations locations_{"export-dialog"};
    std::unique_ptr<MainWindow> window_;
};

TEST_F(ExportFromWindow, FileExportWritesTheProgramToTheChosenFolder)
{
    QAction* exportAction = fileItem(*window_, "Export…");
    ASSERT_NE(exportAction, nullptr);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath("add-vectors-cpp");
    ExportDialogAnswer answer(2, folder);
    exportAction->trigger();
    ASSERT_TRUE(answer.seen);
    EXPECT_TRUE(answer.proposed.endsWith("samples/add_vectors-cupy")) << answer.proposed.toStdString();
    for (const char* f : {"run.cpp", "CMakeLists.txt", "README.md", "kernel.cu", "data/a.npy"})
        EXPECT_TRUE(QFile::exists(folder + '/' + f)) << f;
    EXPECT_FALSE(window_->findChild<ErrorBanner*>()->isVisible());
}

TEST_F(ExportFromWindow, AFolderThatCannotBeWrittenIsReportedInTheBanner)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QFile blocker(dir.filePath("file"));
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    // A folder inside a plain file cannot be made.
    EXPECT_FALSE(window_->documentController()->exportTo(ExportTarget::Cupy, dir.filePath("file/inside")));
    auto* banner = window_->findChild<ErrorBanner*>();
    ASSERT_NE(banner, nullptr);
    EXPECT_TRUE(banner->isVisible());
    EXPECT_TRUE(banner->text().contains("export")) << banner->text().toStdString();
}
