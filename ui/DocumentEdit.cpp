#include "DocumentEdit.hpp"

#include "WorkbenchDocument.hpp"

#include <QCoreApplication>

namespace kw {

DocumentEdit::DocumentEdit(WorkbenchDocument& document, DocumentPart part, Document after, bool merges)
    : document_(document)
    , part_(part)
    , before_(document.document())
    , after_(std::move(after))
    , merges_(merges)
    , last_(std::chrono::steady_clock::now())
{
    setText(QCoreApplication::translate("kw::DocumentEdit", "edit of the %1").arg(QString::fromUtf8(partName(part))));
}

void DocumentEdit::redo() { document_.replacePart(part_, after_); }

void DocumentEdit::undo() { document_.replacePart(part_, before_); }

// One id per part: QUndoStack offers only edits of the same id for merging.
int DocumentEdit::id() const { return 1000 + int(part_); }

bool DocumentEdit::mergeWith(const QUndoCommand* other)
{
    const auto* next = dynamic_cast<const DocumentEdit*>(other);
    if (!next || next->part_ != part_ || part_ == DocumentPart::Whole || !merges_ || !next->merges_
        || next->last_ - last_ > kMergeWindow)
        return false;
    copyPart(part_, next->after_, after_);
    last_ = next->last_;
    // Typed and typed back: the stack drops an edit that changes nothing.
    setObsolete(samePart(part_, before_, after_));
    return true;
}

} // namespace kw
