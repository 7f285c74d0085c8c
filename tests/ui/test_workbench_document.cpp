// WorkbenchDocument and DocumentEdit: every edit says which part changed, undo and
// redo give back the documents before and after (compared as DocumentWriter writes
// them), consecutive edits of a part merge into one step, and the modified mark
// follows the undo stack's clean index (and the text, whose undo is the editor's).
#include "DocumentEdit.hpp"
#include "WorkbenchDocument.hpp"

#include "doc/DocumentWriter.hpp"

#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace kw;

namespace {

Document sample()
{
    Document d;
    d.title = "scale";
    d.source = "__global__ void scale(float* x, int n) { x[threadIdx.x] *= 2; }\n";
    d.kernel = "scale";
    d.variables = {{"n", "64"}};
    d.buffers = {BufferSpec{"x", DType::F32, "n", {}, {}, Direction::InOut, true}};
    d.args = {{"x", "x", DType::F32, ""}, {"n", "", DType::I32, "n"}};
    d.launch.grid = {"1", "1", "1"};
    d.launch.block = {"n", "1", "1"};
    d.trust = Trust::Trusted;
    return d;
}

std::string written(const WorkbenchDocument& w) { return DocumentWriter::toString(w.document()); }

DocumentPart lastPart(const QSignalSpy& spy) { return spy.last().at(0).value<DocumentPart>(); }

} // namespace

TEST(WorkbenchDocument, EachEditSaysWhichPartChanged)
{
    WorkbenchDocument w;
    QSignalSpy changed(&w, &WorkbenchDocument::changed);
    w.reset(sample());
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(lastPart(changed), DocumentPart::Whole);

    const auto expect = [&](DocumentPart part, auto change) {
        Document d = w.document();
        change(d);
        const int before = int(changed.count());
        w.edit(part, d);
        ASSERT_EQ(changed.count(), before + 1) << partName(part);
        EXPECT_EQ(lastPart(changed), part) << partName(part);
        EXPECT_TRUE(samePart(part, w.document(), d)) << partName(part);
    };
    expect(DocumentPart::Kernel, [](Document& d) { d.kernel = "scale2"; });
    expect(DocumentPart::Launch, [](Document& d) { d.launch.block[0] = "32"; });
    expect(DocumentPart::Args, [](Document& d) { d.args[1].value = "n / 2"; });
    expect(DocumentPart::Buffers, [](Document& d) { d.buffers[0].dtype = DType::F64; });
    expect(DocumentPart::Variables, [](Document& d) { d.variables.push_back({"m", "2"}); });
    expect(DocumentPart::Checks, [](Document& d) { d.checks.push_back({"x", "2 * i", "", "", 1e-6, 1e-5}); });
    expect(DocumentPart::Options, [](Document& d) { d.options.defines.push_back({"FAST", "1"}); });

    const int before = int(changed.count());
    w.setSource("// changed\n");
    ASSERT_EQ(changed.count(), before + 1);
    EXPECT_EQ(lastPart(changed), DocumentPart::Source);
    EXPECT_EQ(w.document().source, "// changed\n");
}

TEST(WorkbenchDocument, AnEditThatChangesNothingIsNotPushed)
{
    WorkbenchDocument w;
    w.reset(sample());
    QSignalSpy changed(&w, &WorkbenchDocument::changed);
    Document same = w.document();
    same.kernel = "other"; // not the part edited: ignored
    w.edit(DocumentPart::Launch, same);
    EXPECT_EQ(w.undoStack()->count(), 0);
    EXPECT_EQ(changed.count(), 0);
    EXPECT_EQ(w.document().kernel, "scale");
    EXPECT_FALSE(w.isModified());
}

TEST(WorkbenchDocument, UndoAndRedoGiveBackTheDocumentsBeforeAndAfter)
{
    WorkbenchDocument w;
    w.reset(sample());
    const std::string s0 = written(w);
    Document d = w.document();
    d.launch.grid[0] = "4";
    w.edit(DocumentPart::Launch, d);
    const std::string s1 = written(w);
    d = w.document();
    d.variables[0].second = "128";
    w.edit(DocumentPart::Variables, d);
    const std::string s2 = written(w);
    ASSERT_NE(s0, s1);
    ASSERT_NE(s1, s2);
    ASSERT_EQ(w.undoStack()->count(), 2) << "edits of different parts do not merge";

    w.undoStack()->undo();
    EXPECT_EQ(written(w), s1);
    w.undoStack()->undo();
    EXPECT_EQ(written(w), s0);
    w.undoStack()->redo();
    EXPECT_EQ(written(w), s1);
    w.undoStack()->redo();
    EXPECT_EQ(written(w), s2);
}

TEST(WorkbenchDocument, ConsecutiveEditsOfAPartMergeIntoOneStep)
{
    WorkbenchDocument w;
    w.reset(sample());
    const std::string s0 = written(w);
    Document d = w.document();
    for (const char* typed : {"3", "32", "320"}) {
        d.launch.grid[0] = typed;
        w.edit(DocumentPart::Launch, d);
    }
    EXPECT_EQ(w.undoStack()->count(), 1) << "one step for the typing";
    EXPECT_EQ(w.document().launch.grid[0], "320");
    w.undoStack()->undo();
    EXPECT_EQ(written(w), s0) << "undone as one";
    w.undoStack()->redo();
    EXPECT_EQ(w.document().launch.grid[0], "320");

    // Typed back to where it started: the merged edit changes nothing and is dropped.
    d = w.document();
    d.variables[0].second = "6";
    w.edit(DocumentPart::Variables, d);
    d.variables[0].second = "64";
    w.edit(DocumentPart::Variables, d);
    EXPECT_EQ(w.undoStack()->count(), 1) << "only the launch edit is left";
}

TEST(WorkbenchDocument, EditsAfterASaveDoNotMergeIntoTheSavedOne)
{
    WorkbenchDocument w;
    w.reset(sample());
    Document d = w.document();
    d.launch.grid[0] = "2";
    w.edit(DocumentPart::Launch, d);
    w.savedAs("/tmp/saved.kwb");
    d.launch.grid[0] = "8";
    w.edit(DocumentPart::Launch, d);
    EXPECT_EQ(w.undoStack()->count(), 2);
    EXPECT_TRUE(w.isModified());
    w.undoStack()->undo();
    EXPECT_FALSE(w.isModified()) << "back at the saved state";
    EXPECT_EQ(w.document().launch.grid[0], "2");
}

TEST(WorkbenchDocument, ModifiedFollowsTheUndoStacksCleanIndex)
{
    WorkbenchDocument w;
    QSignalSpy modified(&w, &WorkbenchDocument::modifiedChanged);
    w.reset(sample());
    EXPECT_FALSE(w.isModified());
    Document d = w.document();
    d.kernel = "other";
    w.edit(DocumentPart::Kernel, d);
    EXPECT_TRUE(w.isModified());
    ASSERT_GE(modified.count(), 1);
    EXPECT_TRUE(modified.last().at(0).toBool());
    w.undoStack()->undo();
    EXPECT_FALSE(w.isModified());
    EXPECT_FALSE(modified.last().at(0).toBool());
    w.undoStack()->redo();
    EXPECT_TRUE(w.isModified());
    w.savedAs("/tmp/elsewhere.kwb");
    EXPECT_FALSE(w.isModified());
    EXPECT_EQ(w.path(), "/tmp/elsewhere.kwb");
    EXPECT_EQ(w.document().path, "/tmp/elsewhere.kwb");
    w.undoStack()->undo();
    EXPECT_TRUE(w.isModified()) << "undone past the saved state";
    w.undoStack()->redo();
    EXPECT_FALSE(w.isModified());

    // The text: modified while it differs from the saved text.
    const std::string saved = w.document().source;
    w.setSource(saved + "// more\n");
    EXPECT_TRUE(w.isModified());
    w.setSource(saved);
    EXPECT_FALSE(w.isModified());

    // A restored recovery copy stays unsaved until it is saved.
    w.markUnsaved();
    EXPECT_TRUE(w.isModified());
    w.savedAs("/tmp/elsewhere.kwb");
    EXPECT_FALSE(w.isModified());
}

TEST(WorkbenchDocument, ANewDocumentHasNoHistoryAndTrustIsNotAnEdit)
{
    WorkbenchDocument w;
    w.reset(sample());
    Document d = w.document();
    d.kernel = "other";
    w.edit(DocumentPart::Kernel, d);
    Document fresh = sample();
    fresh.trust = Trust::Untrusted;
    w.reset(fresh);
    EXPECT_EQ(w.undoStack()->count(), 0);
    EXPECT_FALSE(w.isModified());

    QSignalSpy trust(&w, &WorkbenchDocument::trustChanged);
    w.setTrust(Trust::Trusted);
    EXPECT_EQ(trust.count(), 1);
    EXPECT_EQ(w.document().trust, Trust::Trusted);
    EXPECT_EQ(w.undoStack()->count(), 0);
    EXPECT_FALSE(w.isModified());
}
