// CompilerNotice: with no NVRTC on the computer the window's first screen says so and
// what to install; with one it says nothing. The window keeps opening documents.
#include "CodeEditor.hpp"
#include "CompilerNotice.hpp"
#include "MainWindow.hpp"
#include "compile/NvrtcPresence.hpp"
#include "compile/NvrtcSearchOrder.hpp"
#include "qstring_printer.hpp"
#include "test_window_options.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

using kw::CompilerNotice;
using kw::NvrtcPresence;

namespace {
NvrtcPresence missing() { return NvrtcPresence::check({"/nonexistent/kwb-test/libnvrtc.so.13"}); }
} // namespace

TEST(CompilerNotice, NoNvrtcShowsWhatToInstallAndWhereItLooked)
{
    CompilerNotice notice;
    notice.showFor(missing());
    EXPECT_FALSE(notice.isHidden());
    const QString text = notice.text();
    EXPECT_TRUE(text.contains("No CUDA compiler (NVRTC) found")) << text;
    EXPECT_TRUE(text.contains(QString::fromStdString(kw::NvrtcSearchOrder::installHint()))) << text;
    EXPECT_TRUE(notice.toolTip().contains("/nonexistent/kwb-test/libnvrtc.so.13")) << notice.toolTip();
}

TEST(CompilerNotice, AnNvrtcFoundShowsNothing)
{
    CompilerNotice notice;
    notice.showFor(missing());
    NvrtcPresence found;
    found.found = true;
    found.path = "/opt/nvidia/libnvrtc.so.13";
    notice.showFor(found);
    EXPECT_TRUE(notice.isHidden());
    EXPECT_TRUE(notice.text().isEmpty());
}

TEST(CompilerNotice, TheWindowShowsItAboveTheEditorAndStillOpensEditsAndSaves)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString file = dir.filePath("add_vectors.kwb");
    ASSERT_TRUE(QFile::copy(KW_SAMPLES_DIR "/add_vectors.kwb", file));
    kw::MainWindow window(kw::test::windowOptions());
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.compilerNotice()->showFor(missing());
    ASSERT_TRUE(window.openDocument(file));
    EXPECT_TRUE(window.compilerNotice()->isVisible()) << "opening a document keeps the notice";

    window.editor()->append("// edited without a compiler\n");
    ASSERT_TRUE(window.save());
    QFile saved(file);
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
    EXPECT_TRUE(saved.readAll().contains("edited without a compiler"));
    EXPECT_TRUE(window.compilerNotice()->isVisible());
}
