// The step list of a document of steps, driven as a user drives it: steps added,
// removed, moved and edited through the list's buttons and form and the Launch and
// Arguments panels, each one undo step; a step that names what does not exist is
// marked at its row. The step tree's paths and moves are checked on their own first.
#include "ArgumentsPanel.hpp"
#include "DocumentController.hpp"
#include "ErrorBanner.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "StepForm.hpp"
#include "StepListPanel.hpp"
#include "StepProblems.hpp"
#include "StepTree.hpp"
#include "WorkbenchDocument.hpp"
#include "test_window_options.hpp"

#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace kw;

namespace {

QString sample(const char* name) { return QString(KW_SAMPLES_DIR) + "/" + name; }

StepSpec step(StepSpec::Kind kind, std::vector<StepSpec> inner = {})
{
    StepSpec s;
    s.kind = kind;
    s.steps = std::move(inner);
    return s;
}

// The rows' paths as the list shows them, depth first: "1.2".
QStringList rows(const StepListPanel& list)
{
    QStringList out;
    for (const StepPath& p : StepTree::all(list.steps()))
        if (QTreeWidgetItem* item = list.itemAt(p))
            out << item->text(StepListPanel::ColStep);
    return out;
}

void click(QWidget* w) { QTest::mouseClick(w, Qt::LeftButton); }

void clickRow(StepListPanel& list, const StepPath& path)
{
    QTreeWidget* tree = list.tree();
    QTreeWidgetItem* item = list.itemAt(path);
    ASSERT_NE(item, nullptr) << StepTree::text(path);
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    ASSERT_EQ(list.selectedPath(), path);
}

// Opens the button's menu and clicks the entry whose text starts with `entry`.
void chooseFromMenu(QToolButton* button, const QString& entry)
{
    bool chosen = false;
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu)
            return;
        for (QAction* a : menu->actions())
            if (a->text().startsWith(entry)) {
                QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(a).center());
                chosen = true;
                return;
            }
        menu->close();
    });
    click(button);
    ASSERT_TRUE(chosen) << entry.toStdString();
}

// Replaces a field's text as typed.
void retype(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

struct Window {
    MainWindow window{test::windowOptions()};
    StepListPanel& list = *window.stepList();
    QUndoStack& stack = *window.document()->undoStack();

    Window()
    {
        window.resize(1366, 768);
        window.show();
    }
    const Document& doc() const { return window.document()->document(); }
    QLineEdit* launchEdit(const QString& text) const
    {
        for (QLineEdit* e : window.launchPanel()->findChildren<QLineEdit*>())
            if (e->text() == text)
                return e;
        return nullptr;
    }
};

} // namespace

TEST(StepTree, PathsAreTheRunsPathsAndTheValidatorsFields)
{
    EXPECT_EQ(StepTree::text({1, 0}), "2.1");
    EXPECT_EQ(StepTree::parse("2.1"), (StepPath{1, 0}));
    EXPECT_EQ(StepTree::parse("0"), std::nullopt);
    EXPECT_EQ(StepTree::parse("2."), std::nullopt);
    std::string rest;
    EXPECT_EQ(StepTree::ofField("steps[1].steps[0].launch: \"x\" is not", &rest), (StepPath{1, 0}));
    EXPECT_EQ(rest, ".launch: \"x\" is not");
    EXPECT_EQ(StepTree::ofField("steps[3]: no", &rest), (StepPath{3}));
    EXPECT_EQ(rest, ": no");
    EXPECT_EQ(StepTree::ofField("kernels[0]: not in the source"), std::nullopt);
}

TEST(StepTree, MovesInAndOutOfARepeatNeverLeaveItEmpty)
{
    using K = StepSpec::Kind;
    std::vector<StepSpec> steps = {step(K::Repeat, {step(K::Launch)}), step(K::Swap)};
    EXPECT_FALSE(StepTree::canMoveOut(steps, {0, 0})) << "the repeat's only step";
    EXPECT_FALSE(StepTree::canRemove(steps, {0, 0}));
    EXPECT_EQ(StepTree::moveInto(steps, {1}), (StepPath{0, 1}));
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].steps[1].kind, K::Swap);
    EXPECT_FALSE(StepTree::canRemove(steps, {0})) << "the document's only step";
    EXPECT_EQ(StepTree::moveUp(steps, {0, 1}), (StepPath{0, 0}));
    EXPECT_EQ(steps[0].steps[0].kind, K::Swap);
    EXPECT_EQ(StepTree::moveOut(steps, {0, 0}), (StepPath{1}));
    EXPECT_EQ(steps[1].kind, K::Swap);
    EXPECT_EQ(StepTree::duplicate(steps, {1}), (StepPath{2}));
    EXPECT_EQ(StepTree::remove(steps, {2}), (StepPath{1}));
    EXPECT_EQ(StepTree::wrap(steps, {1}, step(K::RepeatUntil)), (StepPath{1}));
    EXPECT_EQ(steps[1].kind, K::RepeatUntil);
    ASSERT_EQ(steps[1].steps.size(), 1u);
    EXPECT_EQ(steps[1].steps[0].kind, K::Swap);
}

TEST(StepProblems, EachFaultyStepIsNamedNotOnlyTheFirst)
{
    Document doc = DocumentReader::readFile((QString(KW_SAMPLES_DIR) + "/heat_diffusion.kwb").toStdString());
    EXPECT_TRUE(StepProblems::of(doc).empty());
    doc.steps[0].steps[1].from = "nope";
    StepSpec fill = step(StepSpec::Kind::Fill);
    fill.to = "gone";
    fill.value = "0";
    doc.steps.push_back(fill);
    const StepProblems p = StepProblems::of(doc);
    ASSERT_EQ(p.atStep.size(), 2u);
    EXPECT_NE(p.atStep.at({0, 1}).find("no buffer named \"nope\""), std::string::npos) << p.atStep.at({0, 1});
    EXPECT_NE(p.atStep.at({1}).find("no buffer named \"gone\""), std::string::npos) << p.atStep.at({1});
}

TEST(StepList, ADocumentOfStepsOpensWithItsStepsListedAndTheLaunchOfTheSelectedOne)
{
    Window w;
    ASSERT_TRUE(w.window.openDocument(sample("heat_diffusion.kwb")));
    EXPECT_TRUE(w.window.stepsDock()->isVisible());
    EXPECT_EQ(rows(w.list), (QStringList{"1", "1.1", "1.2"}));
    EXPECT_EQ(w.list.itemAt({0, 0})->text(StepListPanel::ColWhat), "launch heat_step <<<4×4, 16×16>>> (first pass)");
    EXPECT_EQ(w.list.itemAt({0, 1})->text(StepListPanel::ColWhat), "swap u ↔ v");
    EXPECT_TRUE(w.list.itemAt({0})->text(StepListPanel::ColWhat).startsWith("time steps: repeat iters passes"));
    EXPECT_TRUE(w.window.banner()->isHidden()) << "nothing to warn about";

    clickRow(w.list, {0, 0});
    EXPECT_EQ(w.window.launchDock()->windowTitle(), "Launch of step 1.1");
    EXPECT_EQ(w.window.kernelPicker()->currentKernel(), "heat_step");
    EXPECT_NE(w.launchEdit("cdiv(w, 16)"), nullptr);
    EXPECT_EQ(w.window.argumentsPanel()->rowCount(), 5);
    EXPECT_TRUE(w.window.argumentsPanel()->isEnabled());

    // A swap has no launch: the panels say so rather than show a launch that is not its.
    clickRow(w.list, {0, 1});
    EXPECT_EQ(w.window.launchDock()->windowTitle(), "Launch (no launch step selected)");
    EXPECT_FALSE(w.window.argumentsPanel()->isEnabled());
    EXPECT_FALSE(w.window.kernelPicker()->isEnabled());
    for (QSpinBox* s : w.window.launchPanel()->findChildren<QSpinBox*>())
        EXPECT_FALSE(s->isEnabled()) << "warm-up and repeats do not apply to a document of steps";
    EXPECT_EQ(w.stack.count(), 0) << "showing steps is not an edit";
    EXPECT_FALSE(w.window.isModified());
}

TEST(StepList, AddRemoveAndMoveStepsEachOneUndoStep)
{
    Window w;
    ASSERT_TRUE(w.window.openDocument(sample("heat_diffusion.kwb")));
    clickRow(w.list, {0, 1});
    chooseFromMenu(w.list.addButton(), "Fill");
    EXPECT_EQ(rows(w.list), (QStringList{"1", "1.1", "1.2", "1.3"}));
    EXPECT_EQ(w.list.itemAt({0, 2})->text(StepListPanel::ColWhat), "fill u = 0");
    ASSERT_EQ(w.doc().steps[0].steps.size(), 3u);
    EXPECT_EQ(w.doc().steps[0].steps[2].kind, StepSpec::Kind::Fill);
    EXPECT_EQ(w.doc().steps[0].steps[2].to, "u");
    EXPECT_EQ(w.list.selectedPath(), (StepPath{0, 2}));

    click(w.list.upButton());
    EXPECT_EQ(w.doc().steps[0].steps[1].kind, StepSpec::Kind::Fill);
    click(w.list.outButton());
    ASSERT_EQ(w.doc().steps.size(), 2u);
    EXPECT_EQ(w.doc().steps[1].kind, StepSpec::Kind::Fill);
    EXPECT_EQ(rows(w.list), (QStringList{"1", "1.1", "1.2", "2"}));
    click(w.list.duplicateButton());
    EXPECT_EQ(w.doc().steps.size(), 3u);
    click(w.list.removeButton());
    EXPECT_EQ(w.doc().steps.size(), 2u);
    click(w.list.intoButton());
    EXPECT_EQ(w.doc().steps.size(), 1u);
    EXPECT_EQ(w.doc().steps[0].steps.size(), 3u);
    EXPECT_EQ(w.stack.count(), 6) << "six edits, six undo steps";

    // Undone one at a time, the list following.
    w.window.undoAction()->trigger();
    EXPECT_EQ(rows(w.list), (QStringList{"1", "1.1", "1.2", "2"}));
    w.window.undoAction()->trigger();
    EXPECT_EQ(w.doc().steps.size(), 3u);
    for (int i = 0; i < 4; ++i)
        w.window.undoAction()->trigger();
    EXPECT_EQ(rows(w.list), (QStringList{"1", "1.1", "1.2"}));
    EXPECT_FALSE(w.window.isModified());
    w.window.redoAction()->trigger();
    EXPECT_EQ(w.doc().steps[0].steps.size(), 3u);

    // A new launch binds the kernel's parameters to the buffers and variables of their names.
    clickRow(w.list, {0, 0});
    chooseFromMenu(w.list.addButton(), "Launch");
    const StepSpec& launch = w.doc().steps[0].steps[1];
    EXPECT_EQ(launch.kind, StepSpec::Kind::Launch);
    EXPECT_EQ(launch.kernel, "heat_step");
    ASSERT_EQ(launch.args.size(), 5u);
    EXPECT_EQ(launch.args[1].buffer, "v");
    EXPECT_EQ(launch.args[4].value, "alpha");
    EXPECT_EQ(launch.args[4].type, DType::F32);
    EXPECT_TRUE(w.list.problemText().isEmpty()) << w.list.problemText().toStdString();
    EXPECT_EQ(w.window.launchDock()->windowTitle(), "Launch of step 1.2");
    w.window.undoAction()->trigger();
    ASSERT_EQ(w.doc().steps[0].steps.size(), 3u);

    // A repeat is added around the selected step.
    clickRow(w.list, {0, 2});
    chooseFromMenu(w.list.addButton(), "Repeat until");
    const StepSpec& loop = w.doc().steps[0].steps[2];
    EXPECT_EQ(loop.kind, StepSpec::Kind::RepeatUntil);
    ASSERT_EQ(loop.steps.size(), 1u);
    EXPECT_EQ(loop.steps[0].kind, StepSpec::Kind::Fill);
}

TEST(StepList, AStepsFieldsAreEditedInItsFormAndAnUnknownBufferIsMarkedAtTheStep)
{
    Window w;
    ASSERT_TRUE(w.window.openDocument(sample("heat_diffusion.kwb")));
    clickRow(w.list, {0, 1});
    StepForm* form = w.list.form();
    retype(form->nameEdit(), "ping-pong");
    EXPECT_EQ(w.doc().steps[0].steps[1].name, "ping-pong");
    EXPECT_EQ(w.list.itemAt({0, 1})->text(StepListPanel::ColWhat), "ping-pong: swap u ↔ v");
    EXPECT_EQ(w.stack.count(), 1) << "the keys are one edit";

    retype(form->firstBuffer()->lineEdit(), "nope");
    EXPECT_EQ(w.doc().steps[0].steps[1].from, "nope");
    EXPECT_TRUE(w.list.itemAt({0, 1})->text(StepListPanel::ColStep).endsWith("⚠"));
    EXPECT_TRUE(w.list.problemText().contains("no buffer named \"nope\"")) << w.list.problemText().toStdString();
    // Another step selected, the list counts the steps with problems in words.
    clickRow(w.list, {0, 0});
    EXPECT_EQ(w.list.problemText(), "1 step has problems (marked ⚠; hover for the message)");
    clickRow(w.list, {0, 1});

    w.window.undoAction()->trigger();
    EXPECT_EQ(w.doc().steps[0].steps[1].from, "u");
    EXPECT_FALSE(w.list.itemAt({0, 1})->text(StepListPanel::ColStep).endsWith("⚠"));
    EXPECT_TRUE(w.list.problemText().isEmpty());
    EXPECT_EQ(form->firstBuffer()->currentText(), "u") << "the form shows the undone step";
}

TEST(StepList, ALaunchStepIsEditedInTheLaunchAndArgumentsPanelsAndSavedSo)
{
    QTemporaryDir dir;
    const QString copy = dir.filePath("heat.kwb");
    ASSERT_TRUE(QFile::copy(sample("heat_diffusion.kwb"), copy));
    Window w;
    ASSERT_TRUE(w.window.openDocument(copy));
    clickRow(w.list, {0, 0});
    QLineEdit* grid = w.launchEdit("cdiv(w, 16)");
    ASSERT_NE(grid, nullptr);
    retype(grid, "cdiv(w, 8)");
    EXPECT_EQ(w.doc().steps[0].steps[0].launch.grid[0], "cdiv(w, 8)");
    EXPECT_EQ(w.doc().launch.grid[0], "1") << "a document of steps has no launch of its own";
    EXPECT_EQ(w.list.itemAt({0, 0})->text(StepListPanel::ColWhat), "launch heat_step <<<8×4, 16×16>>> (first pass)");

    // alpha's value, in the arguments table.
    QLineEdit* alpha = nullptr;
    for (QLineEdit* e : w.window.argumentsPanel()->findChildren<QLineEdit*>())
        if (e->text() == "alpha")
            alpha = e;
    ASSERT_NE(alpha, nullptr);
    retype(alpha, "0.1");
    EXPECT_EQ(w.doc().steps[0].steps[0].args.at(4).value, "0.1");
    EXPECT_EQ(w.doc().steps[0].steps[0].args.at(0).buffer, "u");

    ASSERT_TRUE(w.window.save());
    const Document saved = DocumentReader::readFile(copy.toStdString());
    ASSERT_EQ(saved.steps.size(), 1u);
    EXPECT_EQ(saved.steps[0].steps[0].launch.grid[0], "cdiv(w, 8)");
    EXPECT_EQ(saved.steps[0].steps[0].args.at(4).value, "0.1");
    EXPECT_EQ(saved.steps[0].steps[1].kind, StepSpec::Kind::Swap);
    EXPECT_EQ(saved.buffers.size(), 2u) << "the buffers as they were";

    w.window.undoAction()->trigger();
    w.window.undoAction()->trigger();
    EXPECT_EQ(w.doc().steps[0].steps[0].launch.grid[0], "cdiv(w, 16)");
    EXPECT_NE(w.launchEdit("cdiv(w, 16)"), nullptr) << "the launch panel shows the undone step";
}

TEST(StepList, ADocumentWhoseStepNamesAMissingBufferOpensWithThatStepMarked)
{
    QTemporaryDir dir;
    QFile original(sample("heat_diffusion.kwb"));
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    QByteArray text = original.readAll();
    const QByteArray swap = "\"swap\": [\n            \"u\",\n            \"v\"";
    ASSERT_TRUE(text.contains(swap));
    text.replace(swap, "\"swap\": [\n            \"u\",\n            \"w2\"");
    QFile copy(dir.filePath("heat.kwb"));
    ASSERT_TRUE(copy.open(QIODevice::WriteOnly));
    copy.write(text);
    copy.close();

    Window w;
    ASSERT_TRUE(w.window.openDocument(copy.fileName()));
    EXPECT_EQ(w.doc().steps[0].steps[1].to, "w2");
    EXPECT_EQ(w.list.itemAt({0, 1})->text(StepListPanel::ColStep), "1.2 ⚠");
    EXPECT_TRUE(w.list.itemAt({0, 1})->toolTip(StepListPanel::ColStep).contains("no buffer named \"w2\""));
    EXPECT_EQ(w.list.itemAt({0, 0})->text(StepListPanel::ColStep), "1.1") << "the other steps are fine";

    // Fixed in the form: the mark goes.
    clickRow(w.list, {0, 1});
    retype(w.list.form()->secondBuffer()->lineEdit(), "v");
    EXPECT_EQ(w.list.itemAt({0, 1})->text(StepListPanel::ColStep), "1.2");
    EXPECT_TRUE(w.list.problemText().isEmpty()) << w.list.problemText().toStdString();
}
