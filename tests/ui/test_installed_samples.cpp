// Installed samples are read-only: saving one asks for a new location (in the
// user's home, under the sample's name) and never writes into the samples folder.
#include "CodeEditor.hpp"
#include "MainWindow.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"

#include <QApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QTemporaryDir>
#include <QTimer>
#include <gtest/gtest.h>

#include <memory>

using namespace kw;

namespace {

QByteArray digest(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// Answers the next save dialog: records the file it proposes, then picks `answer`
// (or cancels when it is empty).
class SaveDialogAnswer {
public:
    explicit SaveDialogAnswer(QString answer)
        : answer_(std::move(answer))
    {
        QTimer::singleShot(0, [this] { poll(); });
    }
    QString proposed;
    bool seen = false;

private:
    void poll()
    {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            QTimer::singleShot(20, [this] { poll(); });
            return;
        }
        seen = true;
        const QStringList selected = dialog->selectedFiles();
        proposed = selected.isEmpty() ? QString() : selected.first();
        if (answer_.isEmpty()) {
            dialog->reject();
        } else {
            dialog->selectFile(answer_);
            QMetaObject::invokeMethod(dialog, "accept"); // a protected slot
        }
    }
    QString answer_;
};

class InstalledSamples : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        sample_ = QDir(MainWindow::samplesDir()).filePath("add_vectors.kwb");
        ASSERT_TRUE(QFile::exists(sample_)) << sample_.toStdString();
        before_ = digest(sample_);
        // The dialog must not depend on the platform's native one.
        QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    }
    void TearDown() override { EXPECT_EQ(digest(sample_), before_) << "the sample itself was written"; }

    test::TestLocations locations_{"samples"};
    QString sample_;
    QByteArray before_;
};

} // namespace

TEST_F(InstalledSamples, AreRecognisedOnlyInsideTheSamplesFolder)
{
    EXPECT_TRUE(MainWindow::isInstalledSample(sample_));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString copy = dir.filePath("add_vectors.kwb");
    ASSERT_TRUE(QFile::copy(sample_, copy));
    EXPECT_FALSE(MainWindow::isInstalledSample(copy));
    EXPECT_FALSE(MainWindow::isInstalledSample(MainWindow::samplesDir() + "-other/add_vectors.kwb"));
}

TEST_F(InstalledSamples, SaveAsksForANewLocationInTheHomeFolder)
{
    MainWindow w(test::windowOptions());
    ASSERT_TRUE(w.openDocument(sample_));
    EXPECT_TRUE(w.windowTitle().contains("read-only")) << w.windowTitle().toStdString();
    w.editor()->append("\n// changed\n");

    SaveDialogAnswer cancel{QString()};
    EXPECT_FALSE(w.save()) << "cancelling the dialog saves nothing";
    EXPECT_TRUE(cancel.seen) << "Save on a sample must ask where to save";
    EXPECT_EQ(cancel.proposed, QDir::home().filePath("add_vectors.kwb"));
    EXPECT_EQ(w.documentPath(), QFileInfo(sample_).canonicalFilePath());
}

TEST_F(InstalledSamples, SavingACopyMakesItTheDocument)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString target = dir.filePath("mine.kwb");
    MainWindow w(test::windowOptions());
    ASSERT_TRUE(w.openDocument(sample_));
    w.editor()->append("\n// changed\n");

    SaveDialogAnswer answer{target};
    EXPECT_TRUE(w.save());
    EXPECT_TRUE(answer.seen);
    EXPECT_TRUE(QFile::exists(target));
    EXPECT_EQ(QFileInfo(w.documentPath()).canonicalFilePath(), QFileInfo(target).canonicalFilePath());
    EXPECT_FALSE(w.windowTitle().contains("read-only"));

    // Now an ordinary document: Save writes it in place without asking.
    w.editor()->append("// again\n");
    const QByteArray saved = digest(target);
    EXPECT_TRUE(w.save());
    EXPECT_NE(digest(target), saved);
}
