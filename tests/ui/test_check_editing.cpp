// Checks written in the window: typed into the Checks panel's widgets, they are edits of
// the document (undone like the other panels' edits), validated as they are typed, saved
// and read back exactly, and the next run checks them.
#include "ArgumentsPanel.hpp"
#include "ChecksEditor.hpp"
#include "CodeEditor.hpp"
#include "DocumentPanels.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "NotesPanel.hpp"
#include "RunnerClient.hpp"
#include "StepListPanel.hpp"
#include "VariablesTable.hpp"
#include "WorkbenchDocument.hpp"
#include "qstring_printer.hpp"
#include "test_window_options.hpp"
#include "views_test_app.hpp"

#include "doc/DocumentReader.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/DocumentWriter.hpp"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace kw;

namespace {

Document addVectors()
{
    Document d;
    d.title = "add";
    d.source = "__global__ void add(const float* a, const float* b, float* out, int n)\n"
               "{\n"
               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "    if (i < n)\n"
               "        out[i] = a[i] + b[i];\n"
               "}\n";
    d.kernel = "add";
    d.variables = {{"n", "64"}, {"block", "32"}};
    const auto buffer = [](const char* name, Direction dir) {
        BufferSpec b;
        b.name = name;
        b.count = "n";
        b.direction = dir;
        return b;
    };
    d.buffers = {buffer("a", Direction::In), buffer("b", Direction::In), buffer("out", Direction::Out),
                 buffer("expected", Direction::In)}; // passed to no argument: a reference
    d.args = {{"a", "a", DType::F32, ""},
              {"b", "b", DType::F32, ""},
              {"out", "out", DType::F32, ""},
              {"n", "", DType::I32, "n"}};
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

    explicit Bound(const Document& d = addVectors())
    {
        test::app();
        document.reset(d);
        checks.resize(420, 500);
        checks.show();
    }
    const std::vector<CheckSpec>& saved() const { return document.document().checks; }
    // Replaces a line's text as a user does: select all, type.
    static void type(QLineEdit* e, const QString& text)
    {
        e->selectAll();
        QTest::keyClick(e, Qt::Key_Delete);
        QTest::keyClicks(e, text);
    }
    // Picks an entry of a combo box with the keyboard, as a user does.
    static void choose(QComboBox* c, const QString& text)
    {
        const int target = c->findText(text);
        ASSERT_GE(target, 0) << text.toStdString();
        c->setFocus();
        while (c->currentIndex() < target)
            QTest::keyClick(c, Qt::Key_Down);
        while (c->currentIndex() > target)
            QTest::keyClick(c, Qt::Key_Up);
    }
};

// The same document read back from what the writer writes.
Document reloaded(const Document& d) { return DocumentReader::readString(DocumentWriter::toString(d)); }

} // namespace

TEST(CheckEditing, OutIsAPlusBInTwoClicksAndSomeTyping)
{
    Bound b;
    ASSERT_TRUE(b.saved().empty());
    QTest::mouseClick(b.checks.addButton(), Qt::LeftButton);
    // A new check compares the first output with what is typed.
    ASSERT_EQ(b.saved().size(), 1u);
    EXPECT_EQ(b.saved()[0].buffer, "out");
    EXPECT_EQ(b.checks.bufferBox()->currentText(), "out");
    QTest::keyClicks(b.checks.expectEdit(), "a + b");
    ASSERT_EQ(b.saved().size(), 1u);
    EXPECT_EQ(b.saved()[0].expect, "a + b");
    EXPECT_TRUE(b.saved()[0].aggregate.empty());
    EXPECT_DOUBLE_EQ(b.saved()[0].relTol, 1e-5); // the format's defaults
    EXPECT_DOUBLE_EQ(b.saved()[0].absTol, 1e-6);
    EXPECT_TRUE(b.checks.problemOf(0).isEmpty()) << b.checks.problemOf(0);
    EXPECT_TRUE(b.checks.problemLabel()->isHidden());
    EXPECT_TRUE(b.checks.list()->item(0)->text().startsWith("out ≈ a + b")) << b.checks.list()->item(0)->text();

    // Tolerances as typed.
    Bound::type(b.checks.relTolEdit(), "1e-3");
    Bound::type(b.checks.absTolEdit(), "0");
    EXPECT_DOUBLE_EQ(b.saved()[0].relTol, 1e-3);
    EXPECT_DOUBLE_EQ(b.saved()[0].absTol, 0.0);
    EXPECT_EQ(b.checks.relTolEdit()->text(), "1e-3") << "the line keeps what was typed";

    // Saved and read back exactly, and shown again from the file.
    const Document back = reloaded(b.document.document());
    ASSERT_EQ(back.checks.size(), 1u);
    EXPECT_EQ(back.checks[0].buffer, "out");
    EXPECT_EQ(back.checks[0].expect, "a + b");
    EXPECT_EQ(back.checks[0].relTol, 1e-3);
    EXPECT_EQ(back.checks[0].absTol, 0.0);
    EXPECT_EQ(DocumentWriter::toString(back), DocumentWriter::toString(b.document.document()));
    Bound again(back);
    ASSERT_EQ(again.checks.list()->count(), 1);
    EXPECT_EQ(again.checks.expectEdit()->text(), "a + b");
    EXPECT_EQ(again.checks.relTolEdit()->text(), "0.001");
}

TEST(CheckEditing, EditsAreUndoneAndRedoneLikeThoseOfTheOtherPanels)
{
    Bound b;
    QUndoStack* stack = b.document.undoStack();
    QTest::mouseClick(b.checks.addButton(), Qt::LeftButton);
    QTest::keyClicks(b.checks.expectEdit(), "a + b");
    EXPECT_TRUE(b.document.isModified());
    EXPECT_EQ(stack->undoText(), "edit of the checks");
    while (stack->canUndo())
        stack->undo();
    EXPECT_TRUE(b.saved().empty());
    EXPECT_EQ(b.checks.list()->count(), 0) << "the panel shows the undone document";
    EXPECT_FALSE(b.checks.expectEdit()->isEnabled());
    EXPECT_FALSE(b.document.isModified());
    while (stack->canRedo())
        stack->redo();
    ASSERT_EQ(b.saved().size(), 1u);
    EXPECT_EQ(b.saved()[0].expect, "a + b");
    ASSERT_EQ(b.checks.list()->count(), 1);
    EXPECT_EQ(b.checks.expectEdit()->text(), "a + b");

    // Removing is an edit too.
    QTest::mouseClick(b.checks.removeButton(), Qt::LeftButton);
    EXPECT_TRUE(b.saved().empty());
    stack->undo();
    ASSERT_EQ(b.saved().size(), 1u);
}

TEST(CheckEditing, AWrongExpressionIsMarkedAsItIsTyped)
{
    Bound b;
    QTest::mouseClick(b.checks.addButton(), Qt::LeftButton);
    // Empty at first: said at once.
    EXPECT_TRUE(b.checks.problemOf(0).contains("empty")) << b.checks.problemOf(0);
    QTest::keyClicks(b.checks.expectEdit(), "a + q");
    EXPECT_TRUE(b.checks.problemOf(0).contains("unknown name")) << b.checks.problemOf(0);
    EXPECT_TRUE(b.checks.problemOf(0).contains("\"q\"")) << b.checks.problemOf(0);
    EXPECT_FALSE(b.checks.problemLabel()->isHidden());
    EXPECT_EQ(b.checks.problemLabel()->text(), b.checks.problemOf(0));
    EXPECT_EQ(b.checks.list()->item(0)->toolTip(), b.checks.list()->item(0)->text() + "\n" + b.checks.problemOf(0))
        << "the whole check and its problem on hover";
    EXPECT_FALSE(b.checks.list()->item(0)->icon().isNull()) << "the row is marked";

    Bound::type(b.checks.expectEdit(), "a + (b");
    EXPECT_FALSE(b.checks.problemOf(0).isEmpty()) << "an expression that does not parse";
    Bound::type(b.checks.expectEdit(), "a + b * n"); // a scalar argument and a variable
    EXPECT_TRUE(b.checks.problemOf(0).isEmpty()) << b.checks.problemOf(0);
    EXPECT_TRUE(b.checks.problemLabel()->isHidden());
    EXPECT_TRUE(b.checks.list()->item(0)->icon().isNull());
    EXPECT_EQ(b.checks.list()->item(0)->toolTip(), b.checks.list()->item(0)->text());

    // A tolerance that is no number is said, and the check keeps its last one.
    Bound::type(b.checks.relTolEdit(), "abc");
    EXPECT_TRUE(b.checks.problemOf(0).startsWith("rtol")) << b.checks.problemOf(0);
    EXPECT_DOUBLE_EQ(b.saved()[0].relTol, 1e-5);
    Bound::type(b.checks.relTolEdit(), "0.01");
    EXPECT_TRUE(b.checks.problemOf(0).isEmpty()) << b.checks.problemOf(0);

    // A buffer renamed away under the check: the check says so.
    Document d = b.document.document();
    d.buffers[2].name = "c";
    d.args[2].buffer = "c";
    b.document.edit(DocumentPart::Buffers, d);
    EXPECT_TRUE(b.checks.problemOf(0).contains("no buffer named \"out\"")) << b.checks.problemOf(0);
}

TEST(CheckEditing, AggregateAndReferenceChecks)
{
    Bound b;
    QTest::mouseClick(b.checks.addButton(), Qt::LeftButton);
    Bound::choose(b.checks.kindBox(), "aggregate ≈ expression");
    EXPECT_FALSE(b.checks.aggregateBox()->isHidden());
    EXPECT_FALSE(b.checks.ofEdit()->isHidden());
    EXPECT_TRUE(b.checks.referenceBox()->isHidden());
    Bound::choose(b.checks.aggregateBox(), "count");
    QTest::keyClicks(b.checks.ofEdit(), "out >= 0");
    QTest::keyClicks(b.checks.expectEdit(), "n");
    ASSERT_EQ(b.saved().size(), 1u);
    EXPECT_EQ(b.saved()[0].aggregate, "count");
    EXPECT_EQ(b.saved()[0].of, "out >= 0");
    EXPECT_EQ(b.saved()[0].expect, "n");
    EXPECT_TRUE(b.checks.problemOf(0).isEmpty()) << b.checks.problemOf(0);

    // A second check: out against the reference buffer, element by element.
    QTest::mouseClick(b.checks.addButton(), Qt::LeftButton);
    Bound::choose(b.checks.kindBox(), "each element ≈ reference buffer");
    EXPECT_TRUE(b.checks.expectEdit()->isHidden());
    EXPECT_FALSE(b.checks.referenceBox()->isHidden());
    EXPECT_EQ(b.checks.referenceBox()->itemText(0), "expected") << "reference buffers come first";
    ASSERT_EQ(b.saved().size(), 2u);
    EXPECT_EQ(b.saved()[1].buffer, "out");
    EXPECT_EQ(b.saved()[1].expect, "expected");
    EXPECT_TRUE(b.saved()[1].aggregate.empty());
    Bound::choose(b.checks.referenceBox(), "a");
    EXPECT_EQ(b.saved()[1].expect, "a");
    Bound::choose(b.checks.referenceBox(), "expected");
    EXPECT_EQ(b.saved()[1].expect, "expected");

    // Both read back exactly; the reference check reads as one again.
    const Document back = reloaded(b.document.document());
    ASSERT_EQ(back.checks.size(), 2u);
    EXPECT_EQ(back.checks[0].aggregate, "count");
    EXPECT_EQ(back.checks[0].of, "out >= 0");
    EXPECT_EQ(ChecksEditor::kindOf(back.checks[1], back), ChecksEditor::Kind::Reference);
    Bound again(back);
    again.checks.list()->setCurrentRow(1);
    EXPECT_EQ(again.checks.kindBox()->currentData().toInt(), int(ChecksEditor::Kind::Reference));
    EXPECT_EQ(again.checks.referenceBox()->currentText(), "expected");
    again.checks.list()->setCurrentRow(0);
    EXPECT_EQ(again.checks.kindBox()->currentData().toInt(), int(ChecksEditor::Kind::Aggregate));
    EXPECT_EQ(again.checks.aggregateBox()->currentText(), "count");
}

// In the window: a check typed into the Checks dock is checked by the next run.
TEST(CheckEditing, TheNextRunChecksWhatWasTyped)
{
    test::app();
    MainWindow w{test::windowOptions()};
    w.resize(1366, 768);
    w.show();
    QSignalSpy devices(w.runner(), &RunnerClient::devicesChanged);
    ASSERT_TRUE(devices.count() > 0 || devices.wait(20000));
    ASSERT_TRUE(w.openDocument(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb"));
    w.launchPanel()->setCurrentDevice("sim");
    ChecksEditor* checks = w.checksEditor();
    auto* dock = w.findChild<QDockWidget*>("checksDock");
    ASSERT_NE(dock, nullptr);
    EXPECT_TRUE(dock->isAncestorOf(checks));
    dock->show();
    dock->raise();                         // its tab, among the run's views
    ASSERT_EQ(checks->list()->count(), 1); // the sample's own: c = 5 + 2i
    QTest::mouseClick(checks->addButton(), Qt::LeftButton);
    QTest::keyClicks(checks->expectEdit(), "a + b");
    Bound::type(checks->absTolEdit(), "0");
    if (qEnvironmentVariableIsSet("KW_SHOT_DIR")) { // the picture in docs/document-format.md (under xvfb-run)
        QTest::qWait(200);
        w.grab().save(qEnvironmentVariable("KW_SHOT_DIR") + "/screenshot-check-editing.png");
    }
    QTest::mouseClick(checks->addButton(), Qt::LeftButton);
    QTest::keyClicks(checks->expectEdit(), "a - b"); // wrong on purpose: must fail
    ASSERT_EQ(w.document()->document().checks.size(), 3u);

    QSignalSpy ran(&w, &MainWindow::runCompleted);
    w.runAction()->trigger();
    ASSERT_TRUE(ran.wait(120000));
    const RunResult r = ran.at(0).at(0).value<RunResult>();
    ASSERT_EQ(r.checks.size(), 3u);
    EXPECT_TRUE(r.checks[1].passed);
    EXPECT_EQ(r.checks[1].expect, "a + b");
    EXPECT_EQ(r.checks[1].checked, 3u);
    EXPECT_FALSE(r.checks[2].passed);
    EXPECT_EQ(r.checks[2].mismatches, 3u);
}

TEST(CheckEditing, TheFieldsShowBesideTheListInTheLowChecksTab)
{
    // The Checks tab under the editor at 1366x768: wide and low. The selected check's
    // fields are in view without scrolling, the step's too in a document of steps.
    for (const bool steps : {false, true}) {
        ChecksEditor editor;
        Document doc;
        doc.buffers.push_back({});
        doc.buffers.back().name = "out";
        if (steps) {
            doc.steps.push_back({});
            doc.steps.back().name = "first";
        }
        editor.setDocument(doc);
        editor.resize(880, 170);
        editor.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
        editor.addButton()->click();
        QCoreApplication::processEvents();
        EXPECT_EQ(editor.stepBox()->isVisible(), steps);
        EXPECT_LE(editor.minimumSizeHint().height(), 170) << steps;
        for (QWidget* w : std::initializer_list<QWidget*>{editor.stepBox(), editor.bufferBox(), editor.kindBox(),
                                                          editor.expectEdit(), editor.relTolEdit(), editor.list(),
                                                          editor.addButton()}) {
            if (!w->isVisible())
                continue;
            const QRect r(w->mapTo(&editor, QPoint(0, 0)), w->size());
            EXPECT_TRUE(editor.rect().contains(r)) << w->metaObject()->className() << " steps " << steps;
            EXPECT_GE(w->height(), w->minimumSizeHint().height()) << w->metaObject()->className();
        }
    }
}

namespace {
// The row of the editor whose text starts with `start`, or -1.
int rowStarting(const ChecksEditor& checks, const QString& start)
{
    for (int r = 0; r < checks.list()->count(); ++r)
        if (checks.list()->item(r)->text().startsWith(start))
            return r;
    return -1;
}
} // namespace

// A document of steps: each check is shown with its step, and a step's check is added,
// moved, edited, undone and removed as the document's are, saved under its step.
TEST(CheckEditing, AStepsChecksAreEditedAtTheirStep)
{
    const Document sample = DocumentReader::readFile(KW_SAMPLES_DIR "/heat_diffusion.kwb", Trust::Trusted);
    // Step 1 is a repeat (index t) of 1.1, a launch, and 1.2, a swap; two checks after
    // step 1, one after the last step.
    ASSERT_EQ(sample.steps.size(), 1u);
    ASSERT_EQ(sample.steps[0].steps.size(), 2u);
    ASSERT_EQ(sample.steps[0].checks.size(), 2u);
    ASSERT_EQ(sample.checks.size(), 1u);
    Bound b(sample);
    QUndoStack* stack = b.document.undoStack();
    ChecksEditor& checks = b.checks;
    ASSERT_EQ(checks.list()->count(), 3);
    EXPECT_TRUE(checks.list()->item(0)->text().startsWith("after step 1 (time steps): sum(u) ≈ 16 * 16 * 100"))
        << checks.list()->item(0)->text();
    EXPECT_TRUE(checks.list()->item(2)->text().startsWith("after the last step: any("))
        << checks.list()->item(2)->text();
    EXPECT_FALSE(checks.stepBox()->isHidden());
    EXPECT_EQ(checks.stepBox()->currentText(), "after step 1 (time steps)");
    for (int r = 0; r < 3; ++r)
        EXPECT_TRUE(checks.problemOf(r).isEmpty()) << r << checks.problemOf(r);

    // Added beside the selected one (the document's), then moved after the launch.
    checks.list()->setCurrentRow(2);
    QTest::mouseClick(checks.addButton(), Qt::LeftButton);
    ASSERT_EQ(b.saved().size(), 2u);
    EXPECT_EQ(b.saved()[1].buffer, "u");
    Bound::choose(checks.stepBox(), "after step 1.1 (launch heat_step)");
    EXPECT_EQ(b.saved().size(), 1u);
    ASSERT_EQ(b.document.document().steps[0].steps[0].checks.size(), 1u);
    EXPECT_EQ(b.document.document().steps[0].steps[0].checks[0].buffer, "u");
    EXPECT_EQ(checks.stepBox()->currentText(), "after step 1.1 (launch heat_step)");
    const int added = rowStarting(checks, "after step 1.1 (launch heat_step): u ≈");
    ASSERT_EQ(added, 2) << "in the order of the steps: after step 1's, before the last step's";
    EXPECT_EQ(checks.list()->currentRow(), added) << "the moved check stays selected";

    // The repeat's index is a name after its inner steps, not after the last step.
    QTest::keyClicks(checks.expectEdit(), "u + 0 * t");
    EXPECT_TRUE(checks.problemOf(added).isEmpty()) << checks.problemOf(added);
    EXPECT_EQ(b.document.document().steps[0].steps[0].checks[0].expect, "u + 0 * t");
    Bound::choose(checks.stepBox(), "after the last step");
    const int atEnd = rowStarting(checks, "after the last step: u ≈");
    ASSERT_GE(atEnd, 0);
    EXPECT_TRUE(checks.problemOf(atEnd).contains("\"t\"")) << checks.problemOf(atEnd);
    EXPECT_FALSE(checks.problemLabel()->isHidden());
    Bound::choose(checks.stepBox(), "after step 1.1 (launch heat_step)");
    EXPECT_TRUE(checks.problemOf(checks.list()->currentRow()).isEmpty())
        << checks.problemOf(checks.list()->currentRow());
    Bound::type(checks.relTolEdit(), "0.001");
    EXPECT_DOUBLE_EQ(b.document.document().steps[0].steps[0].checks[0].relTol, 1e-3);
    EXPECT_EQ(b.steps.steps()[0].steps[0].checks.size(), 1u) << "the Steps list's copy of the steps follows";

    // Saved under its step: read back by the core reader.
    const Document back = reloaded(b.document.document());
    ASSERT_EQ(back.steps[0].steps[0].checks.size(), 1u);
    EXPECT_EQ(back.steps[0].steps[0].checks[0].expect, "u + 0 * t");
    EXPECT_EQ(back.steps[0].steps[0].checks[0].relTol, 1e-3);
    EXPECT_TRUE(back.steps[0].steps[1].checks.empty());
    EXPECT_EQ(back.steps[0].checks.size(), 2u);
    ASSERT_EQ(back.checks.size(), 1u);
    EXPECT_EQ(back.checks[0].aggregate, "any");
    DocumentValidator::validate(back);

    // An existing step's check edited in place.
    checks.list()->setCurrentRow(0);
    EXPECT_EQ(checks.expectEdit()->text(), "16 * 16 * 100");
    Bound::type(checks.expectEdit(), "64 * 64 * 100");
    EXPECT_EQ(b.document.document().steps[0].checks[0].expect, "64 * 64 * 100");
    EXPECT_EQ(b.document.document().steps[0].checks.size(), 2u);

    // Undone to the sample, and redone.
    const std::string edited = DocumentWriter::toString(b.document.document());
    EXPECT_EQ(stack->undoText(), "edit of the checks");
    while (stack->canUndo())
        stack->undo();
    EXPECT_EQ(DocumentWriter::toString(b.document.document()), DocumentWriter::toString(sample));
    EXPECT_EQ(checks.list()->count(), 3) << "the panel shows the undone document";
    EXPECT_TRUE(b.steps.steps()[0].steps[0].checks.empty());
    while (stack->canRedo())
        stack->redo();
    EXPECT_EQ(DocumentWriter::toString(b.document.document()), edited);
    ASSERT_EQ(checks.list()->count(), 4);

    // Removed, and back with an undo.
    const int row = rowStarting(checks, "after step 1.1");
    ASSERT_GE(row, 0);
    checks.list()->setCurrentRow(row);
    EXPECT_EQ(checks.expectEdit()->text(), "u + 0 * t");
    QTest::mouseClick(checks.removeButton(), Qt::LeftButton);
    EXPECT_TRUE(b.document.document().steps[0].steps[0].checks.empty());
    EXPECT_EQ(b.document.document().steps[0].checks.size(), 2u);
    EXPECT_EQ(b.saved().size(), 1u);
    EXPECT_EQ(checks.list()->count(), 3);
    EXPECT_TRUE(reloaded(b.document.document()).steps[0].steps[0].checks.empty());
    stack->undo();
    ASSERT_EQ(b.document.document().steps[0].steps[0].checks.size(), 1u);
    EXPECT_EQ(b.document.document().steps[0].steps[0].checks[0].expect, "u + 0 * t");
}

// A document of one launch has no steps to choose.
TEST(CheckEditing, ADocumentOfOneLaunchHasNoStepField)
{
    Bound b;
    QTest::mouseClick(b.checks.addButton(), Qt::LeftButton);
    EXPECT_TRUE(b.checks.stepBox()->isHidden());
    EXPECT_EQ(b.checks.stepBox()->count(), 0);
}
