// The arguments panel fills itself from the kernel's signature and keeps the
// settings of parameters whose names survive an edit.
#include "ArgumentsPanel.hpp"
#include "BufferEditor.hpp"
#include "KernelPicker.hpp"

#include "compile/SignatureParser.hpp"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <gtest/gtest.h>

using namespace kw;

namespace {
KernelSignature sig(const char* source)
{
    auto kernels = parseKernelSignatures(source);
    EXPECT_EQ(kernels.size(), 1u);
    return kernels.at(0);
}
// The field a user sees beside `label` (a form's label names its field as buddy).
template <typename Field> Field* fieldLabelled(QWidget* root, const QString& label)
{
    for (QLabel* l : root->findChildren<QLabel*>())
        if (l->text() == label && l->buddy() && l->buddy()->isVisibleTo(root))
            return qobject_cast<Field*>(l->buddy());
    return nullptr;
}

// Select all and type over it, as a user would.
void typeInto(QLineEdit* edit, const QString& text)
{
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
}

const BufferSpec* find(const std::vector<BufferSpec>& bs, const std::string& name)
{
    for (const BufferSpec& b : bs)
        if (b.name == name)
            return &b;
    return nullptr;
}
} // namespace

TEST(Arguments, PointersBecomeBuffersAndScalarsValues)
{
    ArgumentsPanel panel;
    panel.setVariableNames({"n"});
    panel.setSignature(sig("__global__ void k(const double* __restrict__ a, unsigned int* b, float s, int n) {}"));
    ASSERT_EQ(panel.rowCount(), 4);
    const auto buffers = panel.buffers();
    ASSERT_EQ(buffers.size(), 2u);
    EXPECT_EQ(buffers[0].name, "a");
    EXPECT_EQ(buffers[0].dtype, DType::F64);
    EXPECT_EQ(buffers[0].direction, Direction::In);
    EXPECT_EQ(buffers[0].count, "n");
    EXPECT_EQ(buffers[1].dtype, DType::U32);
    EXPECT_EQ(buffers[1].direction, Direction::InOut);
    const auto args = panel.args();
    ASSERT_EQ(args.size(), 4u);
    EXPECT_TRUE(args[0].isBuffer());
    EXPECT_FALSE(args[2].isBuffer());
    EXPECT_EQ(args[2].type, DType::F32);
    EXPECT_EQ(args[3].type, DType::I32);
    EXPECT_EQ(args[3].value, "n"); // a variable of the same name
}

TEST(Arguments, ABufferArgumentsOffsetIsShownAndKept)
{
    ArgumentsPanel panel;
    BufferSpec in{"d_in", DType::I32, "n + 6", {}, {}, Direction::In, true};
    ArgSpec arg{"in", "d_in", DType::I32, ""};
    arg.offset = "RADIUS";
    panel.load({in}, {arg});
    panel.setSignature(sig("__global__ void k(const int* in) {}"));
    auto* table = panel.findChild<QTableWidget*>();
    ASSERT_NE(table, nullptr);
    ASSERT_NE(table->item(0, 0), nullptr);
    EXPECT_EQ(table->item(0, 0)->text().toStdString(), "in = d_in + RADIUS");
    EXPECT_FALSE(table->item(0, 0)->toolTip().isEmpty());
    ASSERT_EQ(panel.args().size(), 1u);
    EXPECT_EQ(panel.args()[0].offset, "RADIUS");
    EXPECT_EQ(panel.args()[0].buffer, "d_in");
}

// A pointer passed as NULL (`int* sums = NULL` in the source, {"buffer": null} in the
// document): "null" where a buffer's direction is chosen, no buffer and no count, and
// the choice goes both ways.
TEST(Arguments, APointerCanBeNullAndGetABufferAgain)
{
    ArgumentsPanel panel;
    BufferSpec data{"data", DType::I32, "32", {}, {}, Direction::InOut, true};
    ArgSpec null{"sums", "", DType::U64, "0"};
    null.null = true;
    panel.load({data}, {ArgSpec{"data", "data", DType::I32, ""}, null});
    panel.setSignature(sig("__global__ void k(int* data, int* sums) {}"));
    ASSERT_EQ(panel.args().size(), 2u);
    EXPECT_TRUE(panel.args()[1].null);
    ASSERT_EQ(panel.buffers().size(), 1u);
    EXPECT_EQ(panel.buffers()[0].name, "data");
    auto* table = panel.findChild<QTableWidget*>();
    auto* direction = qobject_cast<QComboBox*>(table->cellWidget(1, 3));
    ASSERT_NE(direction, nullptr);
    EXPECT_EQ(direction->currentText(), "null");
    EXPECT_TRUE(table->item(1, 4)->text().isEmpty());
    EXPECT_FALSE(table->cellWidget(1, 2)->isEnabled()) << "a null pointer has no element type to choose";
    table->setCurrentCell(1, 0);
    EXPECT_FALSE(panel.bufferEditorShown());

    // A buffer again: one named after the parameter, as a new pointer parameter gets.
    QSignalSpy changed(&panel, &ArgumentsPanel::changed);
    direction->setCurrentIndex(direction->findText("in"));
    EXPECT_GE(changed.count(), 1);
    QTest::qWait(10);
    ASSERT_EQ(panel.buffers().size(), 2u);
    EXPECT_EQ(panel.buffers()[1].name, "sums");
    EXPECT_EQ(panel.buffers()[1].direction, Direction::In);
    EXPECT_FALSE(panel.args()[1].null);
    EXPECT_EQ(panel.args()[1].buffer, "sums");

    // And null once more, from the rebuilt row.
    direction = qobject_cast<QComboBox*>(table->cellWidget(1, 3));
    direction->setCurrentIndex(direction->findText("null"));
    QTest::qWait(10);
    EXPECT_TRUE(panel.args()[1].null);
    EXPECT_EQ(panel.buffers().size(), 1u);
}

// A document may leave its arguments' names out: the rows are then its arguments by
// place, with the document's buffers, not fresh defaults.
TEST(Arguments, ANamelessArgumentIsMatchedByItsPlace)
{
    ArgumentsPanel panel;
    panel.setVariableNames({"n"});
    BufferSpec data{"d_data", DType::I32, "32", {}, {}, Direction::In, true};
    panel.load({data}, {ArgSpec{"", "d_data", DType::I32, ""}, ArgSpec{"", "", DType::U32, "32"}});
    panel.setSignature(KernelSignature{}); // no kernel yet: the places wait for one
    panel.setSignature(sig("__global__ void k(const int* data, unsigned int n) {}"));
    ASSERT_EQ(panel.buffers().size(), 1u);
    EXPECT_EQ(panel.buffers()[0].name, "d_data");
    EXPECT_EQ(panel.buffers()[0].count, "32");
    ASSERT_EQ(panel.args().size(), 2u);
    EXPECT_EQ(panel.args()[0].buffer, "d_data");
    EXPECT_EQ(panel.args()[1].value, "32");
    EXPECT_EQ(panel.args()[1].type, DType::U32);
}

TEST(Arguments, SettingsSurviveSignatureEditsByName)
{
    ArgumentsPanel panel;
    BufferSpec out{"out", DType::F32, "2*n", {"n", "2"}, {}, Direction::Out, false};
    out.init.kind = Initialiser::Kind::Fill;
    out.init.value = "7";
    panel.load({out}, {{"out", "out", DType::F32, ""}, {"n", "", DType::I32, "n/2"}});
    panel.setSignature(sig("__global__ void k(float* out, int n) {}"));
    ASSERT_EQ(panel.buffers().size(), 1u);
    EXPECT_EQ(panel.buffers()[0].count, "2*n");
    EXPECT_EQ(panel.buffers()[0].direction, Direction::Out);
    EXPECT_EQ(panel.args()[1].value, "n/2");

    QSignalSpy changed(&panel, &ArgumentsPanel::changed);
    // Insert a parameter, rename none: out and n keep everything.
    panel.setSignature(sig("__global__ void k(const float* in, float* out, double scale, int n) {}"));
    EXPECT_EQ(changed.count(), 1);
    const auto buffers = panel.buffers();
    ASSERT_EQ(buffers.size(), 2u);
    const BufferSpec* o = find(buffers, "out");
    ASSERT_TRUE(o);
    EXPECT_EQ(o->count, "2*n");
    EXPECT_EQ(o->direction, Direction::Out);
    EXPECT_EQ(o->init.kind, Initialiser::Kind::Fill);
    EXPECT_EQ(o->shape.size(), 2u);
    EXPECT_FALSE(o->plot);
    const BufferSpec* in = find(buffers, "in");
    ASSERT_TRUE(in);
    EXPECT_EQ(in->direction, Direction::In);
    const auto args = panel.args();
    ASSERT_EQ(args.size(), 4u);
    EXPECT_EQ(args[2].name, "scale");
    EXPECT_EQ(args[2].type, DType::F64);
    EXPECT_EQ(args[3].value, "n/2");

    // Give `in` settings of its own (as a document would), then remove it and bring
    // it back: its settings return too.
    std::vector<BufferSpec> custom = panel.buffers();
    for (BufferSpec& b : custom)
        if (b.name == "in") {
            b.count = "3*n";
            b.init.kind = Initialiser::Kind::Fill;
            b.init.value = "2.5";
        }
    panel.load(custom, panel.args());
    const auto fourParams = sig("__global__ void k(const float* in, float* out, double scale, int n) {}");
    panel.setSignature(fourParams);
    ASSERT_NE(find(panel.buffers(), "in"), nullptr);
    ASSERT_EQ(find(panel.buffers(), "in")->count, "3*n");

    panel.setSignature(sig("__global__ void k(float* out, double scale, int n) {}"));
    EXPECT_EQ(panel.buffers().size(), 1u);
    EXPECT_EQ(find(panel.buffers(), "in"), nullptr);

    panel.setSignature(fourParams);
    const auto back = panel.buffers();
    ASSERT_EQ(back.size(), 2u);
    const BufferSpec* again = find(back, "in");
    ASSERT_TRUE(again) << "in came back";
    EXPECT_EQ(again->count, "3*n");
    EXPECT_EQ(again->init.kind, Initialiser::Kind::Fill);
    EXPECT_EQ(again->init.value, "2.5");
    EXPECT_EQ(again->direction, Direction::In);
    const BufferSpec* outAgain = find(back, "out");
    ASSERT_TRUE(outAgain);
    EXPECT_EQ(outAgain->count, "2*n") << "the others kept theirs throughout";
    EXPECT_EQ(panel.args()[3].value, "n/2");
}

TEST(Arguments, AParameterThatChangesKindGetsFreshSettings)
{
    ArgumentsPanel panel;
    panel.setSignature(sig("__global__ void k(float* x) {}"));
    EXPECT_EQ(panel.buffers().size(), 1u);
    panel.setSignature(sig("__global__ void k(float x) {}"));
    EXPECT_TRUE(panel.buffers().empty());
    EXPECT_EQ(panel.args()[0].type, DType::F32);
}

TEST(Arguments, BufferEditorEditsReachTheDocument)
{
    ArgumentsPanel panel;
    panel.setSignature(sig("__global__ void k(float* x) {}"));
    BufferEditor* ed = panel.bufferEditor();
    ASSERT_TRUE(ed->isEnabled());
    EXPECT_EQ(ed->buffer().name, "x");
    // Typed and chosen through the editor's own fields, found by their labels.
    auto* count = fieldLabelled<QLineEdit>(ed, "Count");
    auto* direction = fieldLabelled<QComboBox>(ed, "Direction");
    auto* initialiser = fieldLabelled<QComboBox>(ed, "Initialiser");
    ASSERT_TRUE(count && direction && initialiser);
    typeInto(count, "1000");
    QTest::keyClicks(direction, "out");
    QTest::keyClicks(initialiser, "lin");
    auto* start = fieldLabelled<QLineEdit>(ed, "Start");
    auto* stop = fieldLabelled<QLineEdit>(ed, "Stop");
    ASSERT_TRUE(start && stop) << "the linspace fields show once linspace is chosen";
    typeInto(start, "0");
    typeInto(stop, "1");
    const BufferSpec got = panel.buffers().at(0);
    EXPECT_EQ(got.count, "1000");
    EXPECT_EQ(got.direction, Direction::Out);
    EXPECT_EQ(got.init.kind, Initialiser::Kind::Linspace);
    EXPECT_EQ(got.init.stop, "1");
}

TEST(Arguments, KernelPickerOffersEveryKernelAndKeepsTheChoice)
{
    KernelPicker picker;
    picker.setKernels(parseKernelSignatures("__global__ void first(int* a) {}\n"
                                            "template <typename T, int N> __global__ void scale(T* p, T f) {}\n"));
    EXPECT_EQ(picker.count(), 2);
    EXPECT_EQ(picker.currentKernel(), "first");
    picker.setCurrentKernel("scale<float,128>");
    auto s = picker.currentSignature();
    ASSERT_TRUE(s);
    ASSERT_EQ(s->params.size(), 2u);
    EXPECT_EQ(dtypeForCType(s->params[0].baseType), DType::F32);
    // An edit that keeps `scale` keeps the instantiation.
    picker.setKernels(
        parseKernelSignatures("template <typename T, int N> __global__ void scale(T* p, T f, int n) {}\n"));
    EXPECT_EQ(picker.currentKernel(), "scale<float,128>");
}

TEST(Arguments, AKernelWithoutParametersHidesTheBufferEditor)
{
    ArgumentsPanel panel;
    panel.setSignature(sig("__global__ void k(float* a, int n) {}"));
    EXPECT_TRUE(panel.bufferEditorShown());
    panel.setSignature(sig("__global__ void k(void) {}"));
    EXPECT_EQ(panel.rowCount(), 0);
    EXPECT_FALSE(panel.bufferEditorShown());
}

TEST(Arguments, AScalarAtZeroSaysSoAndTakesAVariableAddedLater)
{
    ArgumentsPanel panel;
    panel.setVariableNames({"n"});
    panel.setSignature(sig("__global__ void k(float* x, float scale, int n, int keep) {}"));
    ASSERT_EQ(panel.rowCount(), 4);
    EXPECT_EQ(panel.args()[1].value, "0");
    EXPECT_EQ(panel.noteOf(1), "0 by default: no variable named scale");
    EXPECT_EQ(panel.noteOf(2), "") << "n has its variable";
    // A value the user typed is theirs: no note, and no variable replaces it.
    auto* keep = qobject_cast<QLineEdit*>(panel.findChild<QTableWidget*>()->cellWidget(3, 3));
    ASSERT_NE(keep, nullptr);
    keep->setText("0");
    emit keep->textEdited("0");
    EXPECT_EQ(panel.noteOf(3), "0 by default: no variable named keep") << "the same 0 is still the default";
    keep->setText("7");
    emit keep->textEdited("7");
    EXPECT_EQ(panel.noteOf(3), "");

    QSignalSpy changed(&panel, &ArgumentsPanel::changed);
    panel.setVariableNames({"n", "scale", "keep"});
    EXPECT_EQ(panel.args()[1].value, "scale") << "the variable added later is picked up";
    EXPECT_EQ(panel.noteOf(1), "");
    EXPECT_EQ(panel.args()[3].value, "7");
    ASSERT_TRUE(changed.wait(1000)) << "the new value reaches the document";
}
