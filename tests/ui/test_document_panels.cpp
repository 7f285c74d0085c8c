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
#include "SetupProposalDialog.hpp"
#include "StepListPanel.hpp"
#include "VariablesTable.hpp"
#include "WorkbenchDocument.hpp"
#include "qstring_printer.hpp"

#include "doc/DocumentValidator.hpp"
#include "doc/DocumentWriter.hpp"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
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

    explicit Bound(const Document& d = sample()) { document.reset(d); }
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

// "Set up from the signature": the proposal is shown first, taken as one edit, undone as one.
namespace {

Document bare(const std::string& source, const std::string& kernel)
{
    Document d;
    d.source = source;
    d.kernel = kernel;
    d.trust = Trust::Trusted;
    return d;
}

SetupProposalDialog* proposalOf(Bound& b)
{
    QTest::mouseClick(b.arguments.setupButton(), Qt::LeftButton);
    return b.arguments.findChild<SetupProposalDialog*>();
}

} // namespace

TEST(DocumentPanels, SetUpFromTheSignatureOfALineOfElements)
{
    Bound b(bare("__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                 "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n",
                 "add_vectors"));
    const std::string before = b.written();
    ASSERT_TRUE(b.arguments.setupButton()->isEnabled());
    SetupProposalDialog* dialog = proposalOf(b);
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(b.written(), before) << "nothing changes before the proposal is taken";
    EXPECT_TRUE(dialog->heading()->text().contains("a line of elements")) << dialog->heading()->text();
    ASSERT_EQ(dialog->sizes()->rowCount(), 1);
    EXPECT_EQ(dialog->sizes()->item(0, 0)->text(), "n");
    // What was inferred from what is listed.
    bool said = false;
    for (int r = 0; r < dialog->notes()->rowCount(); ++r)
        said = said || dialog->notes()->item(r, 1)->text().contains("the last is taken as the output");
    EXPECT_TRUE(said);
    dialog->sizes()->item(0, 1)->setText("1000"); // the size edited in the proposal
    ASSERT_NE(dialog->setUpButton(), nullptr);
    QTest::mouseClick(dialog->setUpButton(), Qt::LeftButton);

    const Document& d = b.document.document();
    EXPECT_EQ(d.variables, (std::vector<std::pair<std::string, std::string>>{{"n", "1000"}}));
    ASSERT_EQ(d.buffers.size(), 3u);
    EXPECT_EQ(d.buffers[2].name, "c");
    EXPECT_EQ(d.buffers[2].direction, Direction::Out);
    EXPECT_EQ(d.buffers[0].count, "n");
    ASSERT_EQ(d.args.size(), 4u);
    EXPECT_EQ(d.args[3].value, "n");
    EXPECT_EQ(d.launch.grid[0], "cdiv(n, 256)");
    EXPECT_EQ(d.launch.block[0], "256");
    // The panels show it.
    EXPECT_EQ(b.arguments.rowCount(), 4);
    EXPECT_EQ(b.launch.launch().grid[0], "cdiv(n, 256)");
    EXPECT_EQ(b.variables.variables(), d.variables);
    EXPECT_NO_THROW(DocumentValidator::validate(d));

    EXPECT_EQ(b.stack()->undoText(), "set-up from the signature");
    b.stack()->undo();
    EXPECT_EQ(b.written(), before) << "one undo takes the whole set-up back";
    EXPECT_TRUE(b.variables.variables().empty());
}

TEST(DocumentPanels, SetUpFromTheSignatureOfAnImage)
{
    Bound b(bare("__global__ void invert(const unsigned char* in, unsigned char* out, int width, int height)\n"
                 "{\n    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "    if (x < width && y < height) out[y * width + x] = 255 - in[y * width + x];\n}\n",
                 "invert"));
    SetupProposalDialog* dialog = proposalOf(b);
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->heading()->text().contains("2-D")) << dialog->heading()->text();
    QTest::mouseClick(dialog->setUpButton(), Qt::LeftButton);
    const Document& d = b.document.document();
    ASSERT_EQ(d.buffers.size(), 2u);
    EXPECT_EQ(d.buffers[0].dtype, DType::U8);
    EXPECT_EQ(d.buffers[1].shape, (std::vector<std::string>{"height", "width"}));
    EXPECT_EQ(d.launch.grid, (std::vector<std::string>{"cdiv(width, 16)", "cdiv(height, 16)", "1"}));
    EXPECT_EQ(d.launch.block, (std::vector<std::string>{"16", "16", "1"}));
    EXPECT_NO_THROW(DocumentValidator::validate(d));
}

TEST(DocumentPanels, SetUpFromASignatureItCannotReadSaysSoAndChangesNothing)
{
    Bound b(bare("__global__ void k(float* data, int stride) { data[threadIdx.x * stride] = 0; }\n", "k"));
    const std::string before = b.written();
    const int edits = b.stack()->count();
    SetupProposalDialog* dialog = proposalOf(b);
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->heading()->text().contains("cannot be read from its parameters")) << dialog->heading()->text();
    EXPECT_TRUE(dialog->heading()->text().contains("no parameter gives the sizes")) << dialog->heading()->text();
    EXPECT_EQ(dialog->setUpButton(), nullptr) << "nothing to take";
    dialog->reject();
    EXPECT_EQ(b.written(), before);
    EXPECT_EQ(b.stack()->count(), edits);
}

// A document of steps: the set-up is of the launch step selected in the Steps list, its
// arguments and launch; the other steps and the document's single launch stay as they were.
namespace {

Document ofSteps()
{
    Document d = bare("__global__ void zero(float* x, int n)\n"
                      "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] = 0;\n}\n"
                      "__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
                      "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n",
                      "");
    d.version = 2;
    d.kernels = {"zero", "add_vectors"};
    d.variables = {{"n", "64"}};
    d.buffers = {BufferSpec{"c", DType::F32, "n", {}, {}, Direction::Out, true}};
    StepSpec zero;
    zero.kind = StepSpec::Kind::Launch;
    zero.kernel = "zero";
    zero.args = {{"x", "c", DType::F32, ""}, {"n", "", DType::I32, "n"}};
    zero.launch.grid = {"1", "1", "1"};
    zero.launch.block = {"64", "1", "1"};
    StepSpec add = zero;
    add.kernel = "add_vectors";
    add.args.clear();
    StepSpec fill;
    fill.kind = StepSpec::Kind::Fill;
    fill.to = "c";
    fill.value = "1";
    d.steps = {zero, add, fill};
    return d;
}

} // namespace

TEST(DocumentPanels, SetUpFromTheSignatureOfTheSelectedLaunchStep)
{
    Bound b(ofSteps());
    const std::string before = b.written();
    b.steps.selectPath({1});
    ASSERT_TRUE(QTest::qWaitFor([&] { return b.picker.currentKernel() == "add_vectors"; }, 3000))
        << b.picker.currentKernel();
    ASSERT_TRUE(b.arguments.setupButton()->isEnabled());
    EXPECT_TRUE(b.arguments.setupButton()->toolTip().contains("step 2")) << b.arguments.setupButton()->toolTip();
    SetupProposalDialog* dialog = proposalOf(b);
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->heading()->text().contains("add_vectors (step 2)")) << dialog->heading()->text();
    EXPECT_TRUE(dialog->heading()->text().contains("a line of elements")) << dialog->heading()->text();
    QTest::mouseClick(dialog->setUpButton(), Qt::LeftButton);

    const Document& d = b.document.document();
    ASSERT_EQ(d.steps.size(), 3u);
    const StepSpec& add = d.steps[1];
    ASSERT_EQ(add.args.size(), 4u);
    EXPECT_EQ(add.args[0].buffer, "a");
    EXPECT_EQ(add.args[2].buffer, "c");
    EXPECT_EQ(add.args[3].value, "n");
    EXPECT_EQ(add.launch.grid[0], "cdiv(n, 256)");
    EXPECT_EQ(add.launch.block[0], "256");
    ASSERT_EQ(d.steps[0].args.size(), 2u) << "the other launch keeps its arguments";
    EXPECT_EQ(d.steps[0].args[0].buffer, "c");
    EXPECT_EQ(d.steps[0].launch.block[0], "64");
    EXPECT_EQ(d.variables, (std::vector<std::pair<std::string, std::string>>{{"n", "64"}})) << "n keeps its value";
    ASSERT_EQ(d.buffers.size(), 3u);
    EXPECT_TRUE(d.findBuffer("a") && d.findBuffer("b") && d.findBuffer("c"));
    EXPECT_NO_THROW(DocumentValidator::validate(d));
    // The panels show the step's new launch and arguments.
    EXPECT_EQ(b.arguments.rowCount(), 4);
    EXPECT_EQ(b.launch.launch().grid[0], "cdiv(n, 256)");

    EXPECT_EQ(b.stack()->undoText(), "set-up from the signature");
    b.stack()->undo();
    EXPECT_EQ(b.written(), before) << "one undo takes the whole set-up back";
}

TEST(DocumentPanels, SetUpFromTheSignatureSaysItNeedsALaunchStepSelected)
{
    Bound b(ofSteps());
    b.steps.selectPath({2}); // the fill
    EXPECT_FALSE(b.arguments.setupButton()->isEnabled());
    EXPECT_TRUE(b.arguments.setupButton()->toolTip().contains("Select a launch step"))
        << b.arguments.setupButton()->toolTip();
    b.steps.selectPath({0});
    EXPECT_TRUE(b.arguments.setupButton()->isEnabled());
}
