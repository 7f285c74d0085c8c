#pragma once
// The document the window edits: the kw::Document, the undo stack of its edits, the
// file it belongs to and whether it is saved. Panels change it through edit() (one
// DocumentEdit on the stack per part, consecutive edits of a part merged) and show
// it from `changed`. The source is the exception: the editor keeps the undo of its
// text (QScintilla's, which knows the cursor and the selection), so setSource()
// updates the document at once without a command; modified therefore means "the
// stack is away from its clean index, or the text differs from the saved text".
#include "DocumentPart.hpp"
#include "doc/Document.hpp"

#include <QObject>
#include <QString>

class QUndoStack;

namespace kw {

class WorkbenchDocument : public QObject {
    Q_OBJECT
public:
    explicit WorkbenchDocument(QObject* parent = nullptr);

    const Document& document() const { return document_; }
    QUndoStack* undoStack() const { return undo_; }

    // A new document in place of the old one: no undo history, saved.
    void reset(const Document& doc);
    // Takes the document as the panels read it after a reset (arguments resolved
    // against the signature...): no edit, no signal, still saved.
    void settle(const Document& doc);
    // Pushes an edit of `part` to `after`'s; nothing when the part is unchanged.
    // `merges`: whether it joins the edits of the same part typed just before and after.
    void edit(DocumentPart part, const Document& after, bool merges = true);
    void setSource(const std::string& source);
    // The undo stack's way in (DocumentEdit): replaces `part` and says so.
    void replacePart(DocumentPart part, const Document& from);
    // Trusting is not an edit: it is not undone and leaves the modified mark alone.
    void setTrust(Trust trust);

    QString path() const { return path_; } // empty while untitled
    void setPath(const QString& path);
    // Saved to `path`: the document now lives there and is unmodified.
    void savedAs(const QString& path);

    bool isModified() const;
    // A restored recovery copy: unsaved until saved, whatever the stack says.
    void markUnsaved();

signals:
    void changed(kw::DocumentPart part);
    void pathChanged(const QString& path);
    void trustChanged(kw::Trust trust);
    void modifiedChanged(bool modified);

private:
    void markSaved();
    void noteModified();

    Document document_;
    QUndoStack* undo_;
    QString path_;
    std::string savedSource_;
    bool forcedModified_ = false;
    bool modified_ = false; // as last announced
};

} // namespace kw
