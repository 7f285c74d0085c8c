// A document of steps opened in the window: the window says that its steps are not edited
// here, and the document it would save or run still has every step.
#include "ErrorBanner.hpp"
#include "MainWindow.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"
#include "test_window_options.hpp"

#include <QLabel>

#include <gtest/gtest.h>

using namespace kw;

TEST(DocumentOfSteps, OpensWithItsStepsKeptAndAWordThatTheyAreNotEditedHere)
{
    const QString path = QString(KW_SAMPLES_DIR) + "/heat_diffusion.kwb";
    MainWindow w(test::windowOptions());
    ASSERT_TRUE(w.openDocument(path));
    const Document doc = w.currentDocument();
    ASSERT_TRUE(doc.isSequence());
    const Document original = DocumentReader::readFile(path.toStdString());
    EXPECT_EQ(DocumentWriter::toString(doc), DocumentWriter::toString(original))
        << "what the window saves is the document it opened";
    const auto* banner = w.findChild<ErrorBanner*>();
    ASSERT_NE(banner, nullptr);
    EXPECT_FALSE(banner->isHidden());
    bool said = false;
    for (const QLabel* l : banner->findChildren<QLabel*>())
        said = said || l->text().contains("cannot be edited in this window yet");
    EXPECT_TRUE(said);
}
