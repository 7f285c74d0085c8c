// A document from elsewhere opens restricted: the trust bar lists what it asks for,
// nothing is compiled (no live check) or run until the user trusts it, trust is
// remembered by content, and a changed copy is a stranger again. Shipped samples,
// new documents and what the user saves are trusted.
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "LiveDiagnostics.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "TrustBar.hpp"
#include "debugger/DebugController.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>

using namespace kw;

namespace {

class Trusting : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        ASSERT_TRUE(dir_.isValid());
        path_ = dir_.filePath("downloaded.kwb");
        QFile in(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb");
        ASSERT_TRUE(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        // A document from elsewhere that asks for an option beyond the defaults.
        timeFile_ = dir_.filePath("nvrtc-time.txt");
        bytes.replace("\"kernel\"", "\"options\": {\"extra\": [\"--time=" + timeFile_.toUtf8() + "\"]}, \"kernel\"");
        writeFile(path_, bytes);
        w_ = std::make_unique<MainWindow>(test::windowOptions());
        w_->resize(1200, 800);
        w_->show();
    }
    static void writeFile(const QString& path, const QByteArray& bytes)
    {
        QFile out(path);
        ASSERT_TRUE(out.open(QIODevice::WriteOnly));
        out.write(bytes);
    }
    // Nothing that compiles or runs is offered: Run, Compile, Debug (which runs the kernel
    // on the simulator), nor the live check.
    bool restricted() const
    {
        return w_->trustBar()->isVisible() && !w_->runAction()->isEnabled() && !w_->compileAction()->isEnabled()
            && !w_->debugController()->debugAction()->isEnabled() && w_->liveDiagnostics()->trust() == Trust::Untrusted;
    }

    test::TestLocations locations_{"trust"};
    QTemporaryDir dir_;
    QString path_, timeFile_;
    std::unique_ptr<MainWindow> w_;
};

} // namespace

TEST_F(Trusting, ADocumentFromElsewhereOpensRestrictedAndSaysWhatItAsksFor)
{
    ASSERT_TRUE(w_->openDocument(path_));
    EXPECT_TRUE(restricted());
    const QString text = w_->trustBar()->text();
    EXPECT_TRUE(text.contains("comes from elsewhere")) << text.toStdString();
    EXPECT_TRUE(text.contains("--time=" + timeFile_)) << text.toStdString();
    EXPECT_TRUE(text.contains("options.extra[0]")) << text.toStdString();
    // Typing in it starts no live check and Run does nothing.
    QSignalSpy started(w_->liveDiagnostics(), &LiveDiagnostics::started);
    w_->editor()->append("// edited\n");
    EXPECT_FALSE(w_->liveDiagnostics()->scheduled()) << "an edit of a restricted document schedules a check";
    w_->run();
    EXPECT_FALSE(w_->runner()->busy()) << "Run sent a job";
    w_->debugController()->start(); // as its shortcut would, were the action enabled
    EXPECT_FALSE(w_->debugController()->debugging());
    EXPECT_FALSE(w_->runner()->busy()) << "Debug opened a session";
    EXPECT_EQ(w_->banner()->title(), "Cannot debug this document");
    EXPECT_EQ(started.count(), 0);
    EXPECT_FALSE(QFile::exists(timeFile_)) << "the option reached NVRTC";
}

TEST_F(Trusting, TrustingItEnablesItAndIsRememberedForTheSameBytesOnly)
{
    ASSERT_TRUE(w_->openDocument(path_));
    ASSERT_TRUE(restricted());
    QSignalSpy started(w_->liveDiagnostics(), &LiveDiagnostics::started);
    w_->trustBar()->trustButton()->click();
    EXPECT_FALSE(restricted());
    EXPECT_FALSE(w_->trustBar()->isVisible());
    EXPECT_TRUE(w_->runAction()->isEnabled());
    EXPECT_TRUE(w_->debugController()->debugAction()->isEnabled());
    EXPECT_GE(started.count(), 1) << "the live check runs once trusted";

    // Opened again: still trusted.
    ASSERT_TRUE(w_->openDocument(path_));
    EXPECT_FALSE(restricted());
    // Changed behind the window's back: a stranger again.
    QFile f(path_);
    ASSERT_TRUE(f.open(QIODevice::Append));
    f.write("\n");
    f.close();
    ASSERT_TRUE(w_->openDocument(path_));
    EXPECT_TRUE(restricted());
}

TEST_F(Trusting, SamplesNewDocumentsAndSavedWorkAreTrusted)
{
    ASSERT_TRUE(w_->openDocument(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb"));
    EXPECT_FALSE(restricted());
    w_->newDocument();
    EXPECT_FALSE(restricted());

    // A trusted document the user edits and saves opens trusted: the new bytes are theirs.
    ASSERT_TRUE(w_->openDocument(path_));
    w_->trustCurrentDocument();
    ASSERT_FALSE(restricted());
    w_->editor()->append("// my change\n");
    ASSERT_TRUE(w_->save());
    ASSERT_TRUE(w_->openDocument(path_));
    EXPECT_FALSE(restricted());
    EXPECT_TRUE(w_->editor()->text().contains("my change"));
}

TEST_F(Trusting, EditingAnUntrustedDocumentAndSavingItDoesNotTrustIt)
{
    ASSERT_TRUE(w_->openDocument(path_));
    ASSERT_TRUE(restricted());
    w_->editor()->append("// an edit\n");
    ASSERT_TRUE(w_->save());
    ASSERT_TRUE(w_->openDocument(path_));
    EXPECT_TRUE(restricted());
}

TEST_F(Trusting, ASourceFileOutsideTheFolderIsNotReadUntilTrusted)
{
    QTemporaryDir other;
    ASSERT_TRUE(other.isValid());
    const QString source = other.filePath("kernel.cu");
    writeFile(source, "__global__ void add(const float* a, const float* b, float* c, int n) {}\n// OUTSIDE_MARKER\n");
    QFile in(path_);
    ASSERT_TRUE(in.open(QIODevice::ReadOnly));
    nlohmann::json j = nlohmann::json::parse(in.readAll().toStdString());
    in.close();
    j.erase("source");
    j["source_file"] = source.toStdString();
    writeFile(path_, QByteArray::fromStdString(j.dump()));

    ASSERT_TRUE(w_->openDocument(path_));
    EXPECT_TRUE(restricted());
    EXPECT_FALSE(w_->editor()->text().contains("OUTSIDE_MARKER"));
    EXPECT_TRUE(w_->trustBar()->text().contains("source_file")) << w_->trustBar()->text().toStdString();
    w_->trustBar()->trustButton()->click();
    EXPECT_FALSE(restricted());
    EXPECT_TRUE(w_->editor()->text().contains("OUTSIDE_MARKER"));
}

namespace {

// A document whose kernel is in k.cu, which includes helper.h, which includes inner.h.
QString documentWithFiles(const QTemporaryDir& dir)
{
    auto write = [&](const QString& name, const QByteArray& text) {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text);
    };
    write("inner.h", "__device__ inline float twice(float v) { return 2 * v; }\n");
    write("helper.h", "#include \"inner.h\"\n");
    write("k.cu", "#include \"helper.h\"\n__global__ void k(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n");
    write("doc.kwb", R"({"format": "kernel-workbench", "version": 1, "source_file": "k.cu", "kernel": "k",
      "buffers": [{"name": "x", "dtype": "f32", "count": "4", "init": {"kind": "fill", "value": "1"}, "direction": "inout"}],
      "args": [{"name": "x", "buffer": "x"}], "launch": {"grid": [1, 1, 1], "block": [4, 1, 1]}})");
    return dir.filePath("doc.kwb");
}

} // namespace

TEST_F(Trusting, TheTrustBarListsNestedHeadersToo)
{
    QTemporaryDir dir;
    ASSERT_TRUE(w_->openDocument(documentWithFiles(dir)));
    ASSERT_TRUE(restricted());
    const QString text = w_->trustBar()->text();
    EXPECT_TRUE(text.contains("helper.h")) << text.toStdString();
    EXPECT_TRUE(text.contains("inner.h")) << text.toStdString();
}

TEST_F(Trusting, TrustCoversEveryFileTheDocumentBringsAndNamesWhatChanged)
{
    QTemporaryDir dir;
    const QString doc = documentWithFiles(dir);
    ASSERT_TRUE(w_->openDocument(doc));
    w_->trustCurrentDocument();
    ASSERT_FALSE(restricted());
    ASSERT_TRUE(w_->openDocument(doc));
    EXPECT_FALSE(restricted()) << "the same files again";

    for (const QString name : {"k.cu", "inner.h"}) {
        QFile f(dir.filePath(name));
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        writeFile(dir.filePath(name), before + "// swapped\n");
        ASSERT_TRUE(w_->openDocument(doc));
        EXPECT_TRUE(restricted()) << name.toStdString() << " was swapped";
        const QString text = w_->trustBar()->text();
        EXPECT_TRUE(text.contains("changed since")) << text.toStdString();
        EXPECT_TRUE(text.contains(name)) << text.toStdString();
        writeFile(dir.filePath(name), before);
        ASSERT_TRUE(w_->openDocument(doc));
        EXPECT_FALSE(restricted()) << name.toStdString() << " restored";
    }
}

TEST_F(Trusting, ASampleIsTrustedByItsContentNotByItsFolder)
{
    // The samples folder of this build (a portable install's is writable by its user too).
    const QString samples = MainWindow::samplesDir();
    QFile in(samples + "/add_vectors_small.kwb");
    ASSERT_TRUE(in.open(QIODevice::ReadOnly));
    const QByteArray bytes = in.readAll();
    const QString pid = QString::number(QCoreApplication::applicationPid());
    const QString copy = samples + "/zz_copy_" + pid + ".kwb", changed = samples + "/zz_changed_" + pid + ".kwb";
    writeFile(copy, bytes);
    QByteArray edited = bytes;
    edited.replace("\"kernel\"", "\"options\": {\"extra\": [\"--time=" + timeFile_.toUtf8() + "\"]}, \"kernel\"");
    writeFile(changed, edited);
    const bool copyOpened = w_->openDocument(copy);
    const bool copyRestricted = restricted();
    const bool changedOpened = w_->openDocument(changed);
    const bool changedRestricted = restricted();
    QFile::remove(copy);
    QFile::remove(changed);
    EXPECT_TRUE(copyOpened && changedOpened);
    EXPECT_FALSE(copyRestricted) << "the shipped bytes are trusted";
    EXPECT_TRUE(changedRestricted) << "a sample changed in the samples folder asks for trust";
}
