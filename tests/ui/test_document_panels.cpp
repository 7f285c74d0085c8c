// DocumentPanels: an edit in a panel reaches the document as an edit on its undo
// stack, and a change of the document (undo, redo, a new document) reaches the panel
// without pushing an edit of its own. The panels are the window's, without the window.
#include "ArgumentsPanel.hpp"
#include "BufferEditor.hpp"
#include "ChecksEditor.hpp"
#include "CodeEditor.hpp"
#include "DocumentPanels.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "NotesPanel.hpp"
#include "StepListPanel.hpp"
#include "VariablesTable.hpp"
#include "WorkbenchDocument.hpp"

#include "doc/DocumentWriter.hpp"

#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace kw;

namespace {

Document sample()
{
    Document d;
    d.title = "scale";
    d.source = "__global__ void scale(float* x, float factor, int n)\n"
               "{\n"
               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "    if (i < n)\n"
               "        x[i] *= factor;\n"
               "}\n";
    d.kernel = "scale";
    d.variables = {{"n", "64"}, {"block", "32"}};
    d.buffers = {BufferSpec{"x", DType::F32, "n", {}, {}, Direction::InOut, true}};
    d.args = {{"x", "x", DType::F32, ""}, {"factor", "", DType::F32, "2"}, {"n", "", DType::I32, "n"}};
    d.launch.grid = {"cdiv(n, block)", "1", "1"};
    d.launch.block = {"block", "1", "1"};
    d.trust = Trust::Trusted;
    return d;
}

struct Bound {
    WorkbenchDocument document;
    CodeEditor editor;
    KernelPicker picker;
    VariablesTable variables;
    ArgumentsPanel arguments;
    LaunchPanel launch;
    NotesPanel notes;
    StepListPanel steps;
    ChecksEditor checks;
    DocumentPanels panels{document, {&editor, &picker, &variables, &arguments, &launch, &notes, &steps, &checks}};

    Bound() { document.reset(sample()); }
    QUndoStack* stack() { return document.undoStack(); }
    QLineEdit* launchEdit(const QString& text)
    {
        for (QLineEdit* e : launch.findChildren<QLineEdit*>())
            if (e->text() == text)
                return e;
        return nullptr;
    }
    std::string written() const { return DocumentWriter::toString(document.document()); }
};

} // namespace

TEST(DocumentPanels, ANewDocumentIsShownInThePanelsWithoutAnEdit)
{
    Bound b;
    EXPECT_EQ(b.editor.text().toStdString(), sample().source);
    EXPECT_EQ(b.picker.currentKernel(), "scale");
    EXPECT_EQ(b.variables.variables(), sample().variables);
    EXPECT_EQ(b.arguments.rowCount(), 3);
    EXPECT_EQ(b.launch.launch().grid[0], "cdiv(n, block)");
    EXPECT_EQ(b.stack()->count(), 0) << "showing a document is not an edit";
    EXPECT_FALSE(b.document.isModified());
}

TEST(DocumentPanels, TypingInTheLaunchPanelIsOneEditAndUndoShowsTheOldValue)
{
    Bound b;
    const std::string before = b.written();
    QLineEdit* grid = b.launchEdit("cdiv(n, block)");
    ASSERT_NE(grid, nullptr);
    grid->selectAll();
    QTest::keyClicks(grid, "4");
    QTest::keyClicks(grid, "8");
    EXPECT_EQ(b.document.document().launch.grid[0], "48");
    EXPECT_EQ(b.stack()->count(), 1) << "the keys merge into one edit";
    EXPECT_TRUE(b.document.isModified());

    b.stack()->undo();
    EXPECT_EQ(grid->text(), "cdiv(n, block)") << "the panel shows the document's value again";
    EXPECT_EQ(b.written(), before);
    EXPECT_EQ(b.stack()->count(), 1) << "showing the undo pushed nothing";
    EXPECT_TRUE(b.stack()->canRedo());
    EXPECT_FALSE(b.document.isModified());

    b.stack()->redo();
    EXPECT_EQ(grid->text(), "48");

    // A spin box of the run settings is an edit of the launch part too.
    const auto repeats = b.launch.findChildren<QSpinBox*>();
    ASSERT_FALSE(repeats.isEmpty());
    const int value = repeats.back()->value();
    repeats.back()->setValue(value + 1);
    EXPECT_FALSE(b.written() == before);
}

TEST(DocumentPanels, AVariableEditReachesTheDocumentAndTheLaunchPanel)
{
    Bound b;
    auto* table = b.variables.findChild<QTableWidget*>();
    ASSERT_NE(table, nullptr);
    table->item(0, 1)->setText("256");
    ASSERT_EQ(b.document.document().variables[0].second, "256");
    EXPECT_EQ(b.launch.grid()->x, 8u) << "cdiv(256, 32): the launch panel follows the variables";
    EXPECT_EQ(b.stack()->count(), 1);

    b.stack()->undo();
    EXPECT_EQ(table->item(0, 1)->text(), "64");
    EXPECT_EQ(b.launch.grid()->x, 2u);
    EXPECT_EQ(b.stack()->count(), 1);
}

TEST(DocumentPanels, AnArgumentAndABufferEditReachTheDocument)
{
    Bound b;
    auto* table = b.arguments.findChild<QTableWidget*>();
    ASSERT_NE(table, nullptr);
    // The scalar factor: its value is typed in the table.
    QLineEdit* factor = nullptr;
    for (QLineEdit* e : table->findChildren<QLineEdit*>())
        if (e->text() == "2")
            factor = e;
    ASSERT_NE(factor, nullptr);
    factor->selectAll();
    QTest::keyClicks(factor, "3");
    ASSERT_EQ(b.document.document().args.size(), 3u);
    EXPECT_EQ(b.document.document().args[1].value, "3");

    // The buffer x: its count in the buffer editor.
    table->setCurrentCell(0, 0);
    ASSERT_TRUE(b.arguments.bufferEditorShown());
    QLineEdit* count = nullptr;
    for (QLineEdit* e : b.arguments.bufferEditor()->findChildren<QLineEdit*>())
        if (e->text() == "n")
            count = e;
    ASSERT_NE(count, nullptr);
    count->selectAll();
    QTest::keyClicks(count, "128");
    ASSERT_EQ(b.document.document().buffers.size(), 1u);
    EXPECT_EQ(b.document.document().buffers[0].count, "128");
    EXPECT_EQ(b.stack()->count(), 2) << "an argument edit and a buffer edit";

    b.stack()->undo();
    EXPECT_EQ(b.document.document().buffers[0].count, "n");
    EXPECT_EQ(b.arguments.buffers().at(0).count, "n") << "the panel shows the undone buffer";
    b.stack()->undo();
    EXPECT_EQ(b.arguments.args().at(1).value, "2");
    EXPECT_FALSE(b.document.isModified());
}

TEST(DocumentPanels, TheEditorsTextIsTheDocumentsAtOnce)
{
    Bound b;
    b.editor.setCursorPosition(0, 0);
    b.editor.insert("// note\n");
    EXPECT_EQ(b.document.document().source, "// note\n" + sample().source) << "no wait: a run may start now";
    EXPECT_EQ(b.stack()->count(), 0) << "the editor keeps the undo of its text";
    EXPECT_TRUE(b.document.isModified());
    b.editor.undo();
    EXPECT_EQ(b.document.document().source, sample().source);
    EXPECT_FALSE(b.document.isModified());

    // A source set on the document reaches the editor.
    b.document.setSource("__global__ void other() {}\n");
    EXPECT_EQ(b.editor.text(), "__global__ void other() {}\n");
}

TEST(DocumentPanels, AKernelChosenInThePickerIsAnEditThatUndoes)
{
    Bound b;
    b.document.setSource(sample().source + "__global__ void twice(float* y, int m) { }\n");
    ASSERT_TRUE(QTest::qWaitFor([&] { return b.picker.count() == 2; }, 3000)) << "the picker lists both kernels";
    b.picker.setCurrentIndex(b.picker.findText("twice"));
    EXPECT_EQ(b.document.document().kernel, "twice");
    ASSERT_EQ(b.document.document().args.size(), 2u) << "the arguments follow the kernel";
    EXPECT_EQ(b.document.document().args[1].name, "m");
    b.stack()->undo();
    EXPECT_EQ(b.picker.currentKernel(), "scale");
    EXPECT_EQ(b.document.document().kernel, "scale");
    EXPECT_EQ(b.document.document().args.size(), 3u) << "kernel and arguments are one step";
    EXPECT_EQ(b.arguments.rowCount(), 3);
}
