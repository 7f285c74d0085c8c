// Autosave recovery: a modified document leaves a recovery copy; a window that
// goes away without a clean close (a crash) leaves it behind, the next window
// restores it; saving, discarding or closing cleanly removes it.
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "MainWindow.hpp"
#include "test_locations.hpp"

#include "doc/DocumentReader.hpp"
#include "test_window_options.hpp"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>
#include <gtest/gtest.h>

#include <memory>

using namespace kw;

namespace {

MainWindow::Options options() { return test::windowOptions(true); }

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Answers the next modal message box with the given button, once it is up.
void answerNextMessageBox(QMessageBox::StandardButton button)
{
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        timer->stop();
        timer->deleteLater();
        if (QAbstractButton* b = box->button(button))
            b->click();
        else
            box->reject();
    });
    timer->start();
}

class Recovery : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        ASSERT_TRUE(dir_.isValid());
        path_ = dir_.filePath("add_vectors_small.kwb");
        ASSERT_TRUE(QFile::copy(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", path_));
        QFile::setPermissions(path_, QFile::ReadOwner | QFile::WriteOwner);
    }
    std::unique_ptr<MainWindow> window()
    {
        auto w = std::make_unique<MainWindow>(options());
        w->resize(1200, 800);
        w->show();
        return w;
    }
    // Opens the copied sample and changes its source: the document is modified.
    QString openAndEdit(MainWindow& w, const QString& marker)
    {
        EXPECT_TRUE(w.openDocument(path_));
        EXPECT_FALSE(w.isModified());
        w.editor()->append("// " + marker + "\n");
        EXPECT_TRUE(w.isModified());
        return w.editor()->text();
    }

    test::TestLocations locations_{"recovery"};
    QTemporaryDir dir_;
    QString path_;
};

} // namespace

TEST_F(Recovery, AnUnmodifiedDocumentLeavesNoCopy)
{
    auto w = window();
    ASSERT_TRUE(w->openDocument(path_));
    w->writeRecovery();
    EXPECT_FALSE(QFileInfo::exists(MainWindow::recoveryFile()));
    EXPECT_FALSE(w->hasRecovery());
}

TEST_F(Recovery, TheCopyHoldsTheEditedSourceAndItsOrigin)
{
    auto w = window();
    const QString edited = openAndEdit(*w, "edited for the recovery copy");
    w->writeRecovery();
    ASSERT_TRUE(QFileInfo::exists(MainWindow::recoveryFile()));
    const Document copy = DocumentReader::readFile(MainWindow::recoveryFile().toStdString());
    EXPECT_EQ(QString::fromStdString(copy.source), edited);
    EXPECT_EQ(readAll(MainWindow::recoveryFile() + ".origin"), QFileInfo(path_).absoluteFilePath());
    // The document itself is not touched by the autosave.
    EXPECT_FALSE(readAll(path_).contains("edited for the recovery copy"));
}

TEST_F(Recovery, ACrashedSessionIsRestoredInTheNextWindow)
{
    QString edited;
    {
        auto w = window();
        edited = openAndEdit(*w, "work that must survive");
        w->writeRecovery();
        // Destroyed without close(): nothing gets the chance to clean up, as in a crash.
    }
    ASSERT_TRUE(QFileInfo::exists(MainWindow::recoveryFile()));

    auto next = window();
    ASSERT_TRUE(next->hasRecovery());
    EXPECT_NE(next->editor()->text(), edited) << "a new window starts with its own document";
    ASSERT_TRUE(next->restoreRecovery());
    EXPECT_EQ(next->editor()->text(), edited);
    EXPECT_EQ(next->documentPath(), QFileInfo(path_).absoluteFilePath());
    EXPECT_TRUE(next->isModified()) << "restored work is unsaved until the user saves it";
    EXPECT_TRUE(next->windowTitle().startsWith("add_vectors_small.kwb"));
    EXPECT_FALSE(next->hasRecovery()) << "the copy is used up once restored";

    // Saving writes the restored work to its original file.
    ASSERT_TRUE(next->save());
    const Document saved = DocumentReader::readFile(path_.toStdString());
    EXPECT_EQ(QString::fromStdString(saved.source), edited);
}

TEST_F(Recovery, AnUntitledDocumentIsRestoredUntitled)
{
    QString edited;
    {
        auto w = window();
        w->newDocument();
        w->editor()->append("// untitled work\n");
        edited = w->editor()->text();
        w->writeRecovery();
    }
    auto next = window();
    ASSERT_TRUE(next->restoreRecovery());
    EXPECT_EQ(next->editor()->text(), edited);
    EXPECT_TRUE(next->documentPath().isEmpty());
    EXPECT_TRUE(next->windowTitle().startsWith("untitled.kwb"));
}

TEST_F(Recovery, AnUnreadableCopyIsReportedNotLoaded)
{
    QDir().mkpath(QFileInfo(MainWindow::recoveryFile()).absolutePath());
    QFile bad(MainWindow::recoveryFile());
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write("{ this is not a document");
    bad.close();
    auto w = window();
    const QString before = w->editor()->text();
    EXPECT_FALSE(w->restoreRecovery());
    EXPECT_EQ(w->editor()->text(), before);
    EXPECT_TRUE(w->banner()->isVisibleTo(w.get()));
    EXPECT_TRUE(w->banner()->text().contains("recovery"));
}

TEST_F(Recovery, OfferingAsksAndRestoresOnYes)
{
    QString edited;
    {
        auto w = window();
        edited = openAndEdit(*w, "restored after asking");
        w->writeRecovery();
    }
    auto next = window();
    answerNextMessageBox(QMessageBox::Yes);
    next->offerRecovery();
    EXPECT_EQ(next->editor()->text(), edited);
    EXPECT_FALSE(next->hasRecovery());
}

TEST_F(Recovery, OfferingAndDecliningDiscardsTheCopy)
{
    {
        auto w = window();
        openAndEdit(*w, "declined");
        w->writeRecovery();
    }
    auto next = window();
    const QString before = next->editor()->text();
    answerNextMessageBox(QMessageBox::No);
    next->offerRecovery();
    EXPECT_EQ(next->editor()->text(), before);
    EXPECT_FALSE(next->hasRecovery());
}

TEST_F(Recovery, SavingRemovesTheCopy)
{
    auto w = window();
    openAndEdit(*w, "saved");
    w->writeRecovery();
    ASSERT_TRUE(w->hasRecovery());
    ASSERT_TRUE(w->save());
    EXPECT_FALSE(w->hasRecovery());
    EXPECT_FALSE(QFileInfo::exists(MainWindow::recoveryFile() + ".origin"));
    EXPECT_FALSE(w->isModified());
}

TEST_F(Recovery, ACleanCloseRemovesTheCopy)
{
    auto w = window();
    openAndEdit(*w, "closed without saving");
    w->writeRecovery();
    ASSERT_TRUE(w->hasRecovery());
    answerNextMessageBox(QMessageBox::Discard);
    EXPECT_TRUE(w->close());
    EXPECT_FALSE(w->hasRecovery());
    EXPECT_FALSE(readAll(path_).contains("closed without saving")) << "discarded, not saved";
}

TEST_F(Recovery, CancellingTheCloseKeepsTheCopy)
{
    auto w = window();
    openAndEdit(*w, "still open");
    w->writeRecovery();
    answerNextMessageBox(QMessageBox::Cancel);
    EXPECT_FALSE(w->close());
    EXPECT_TRUE(w->hasRecovery()) << "the window stays open with its work, so the copy stays";
}

TEST_F(Recovery, DiscardingChangesForAnotherDocumentRemovesTheCopy)
{
    auto w = window();
    openAndEdit(*w, "thrown away");
    w->writeRecovery();
    ASSERT_TRUE(w->hasRecovery());
    answerNextMessageBox(QMessageBox::Discard);
    w->newDocument();
    EXPECT_FALSE(w->isModified());
    EXPECT_FALSE(w->hasRecovery()) << "a later crash must not offer work the user threw away";
}
