#pragma once
// One edit of a document on its undo stack: a part replaced by a new value. Edits
// of the same part that follow each other within kMergeWindow merge into one, so
// typing a launch expression or a variable is one undo step, not one per key.
#include "DocumentPart.hpp"
#include "doc/Document.hpp"

#include <QUndoCommand>

#include <chrono>

namespace kw {

class WorkbenchDocument;

class DocumentEdit : public QUndoCommand {
public:
    static constexpr std::chrono::milliseconds kMergeWindow{1500};

    // `merges`: false for an edit that is an undo step of its own whatever follows it
    // (a step added or moved), true for one typed a key at a time.
    DocumentEdit(WorkbenchDocument& document, DocumentPart part, Document after, bool merges = true);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    DocumentPart part() const { return part_; }

private:
    WorkbenchDocument& document_;
    DocumentPart part_;
    Document before_, after_;
    bool merges_;
    std::chrono::steady_clock::time_point last_; // when the newest merged edit was made
};

} // namespace kw
