// A document of steps opened in the window: the document it would save or run still has
// every step, exactly as it was read, and the window lists them in its Steps dock.
#include "MainWindow.hpp"
#include "StepListPanel.hpp"
#include "WorkbenchDocument.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"
#include "test_window_options.hpp"

#include <QDockWidget>
#include <QUndoStack>

#include <gtest/gtest.h>

using namespace kw;

TEST(DocumentOfSteps, OpensWithItsStepsKeptAndListed)
{
    const QString path = QString(KW_SAMPLES_DIR) + "/heat_diffusion.kwb";
    MainWindow w(test::windowOptions());
    w.show();
    ASSERT_TRUE(w.openDocument(path));
    const Document doc = w.currentDocument();
    ASSERT_TRUE(doc.isSequence());
    const Document original = DocumentReader::readFile(path.toStdString());
    EXPECT_EQ(DocumentWriter::toString(doc), DocumentWriter::toString(original))
        << "what the window saves is the document it opened";
    EXPECT_FALSE(w.isModified());
    EXPECT_EQ(w.document()->undoStack()->count(), 0);
    EXPECT_TRUE(w.stepsDock()->isVisible());
    EXPECT_EQ(w.stepList()->steps().size(), doc.steps.size());

    // A document of one launch has no steps to list.
    ASSERT_TRUE(w.openDocument(QString(KW_SAMPLES_DIR) + "/saxpy.kwb"));
    EXPECT_FALSE(w.stepsDock()->isVisible());
}
