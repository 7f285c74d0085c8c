#include "WorkbenchDocument.hpp"

#include "DocumentEdit.hpp"

#include <QUndoStack>

namespace kw {

WorkbenchDocument::WorkbenchDocument(QObject* parent)
    : QObject(parent)
    , undo_(new QUndoStack(this))
{
    connect(undo_, &QUndoStack::cleanChanged, this, &WorkbenchDocument::noteModified);
}

void WorkbenchDocument::reset(const Document& doc)
{
    document_ = doc;
    undo_->clear();
    markSaved();
    emit changed(DocumentPart::Whole);
}

void WorkbenchDocument::settle(const Document& doc)
{
    document_ = doc;
    savedSource_ = document_.source;
    noteModified();
}

void WorkbenchDocument::edit(DocumentPart part, const Document& after, bool merges)
{
    if (!samePart(part, document_, after))
        undo_->push(new DocumentEdit(*this, part, after, merges));
}

void WorkbenchDocument::setSource(const std::string& source)
{
    if (source == document_.source)
        return;
    document_.source = source;
    emit changed(DocumentPart::Source);
    noteModified();
}

void WorkbenchDocument::replacePart(DocumentPart part, const Document& from)
{
    copyPart(part, from, document_);
    emit changed(part);
}

void WorkbenchDocument::setTrust(Trust trust)
{
    if (trust == document_.trust)
        return;
    document_.trust = trust;
    emit trustChanged(trust);
}

void WorkbenchDocument::setPath(const QString& path)
{
    if (path == path_)
        return;
    path_ = path;
    emit pathChanged(path_);
}

void WorkbenchDocument::savedAs(const QString& path)
{
    document_.path = path.toStdString();
    setPath(path);
    markSaved();
}

bool WorkbenchDocument::isModified() const
{
    return forcedModified_ || !undo_->isClean() || document_.source != savedSource_;
}

void WorkbenchDocument::markUnsaved()
{
    forcedModified_ = true;
    noteModified();
}

void WorkbenchDocument::markSaved()
{
    forcedModified_ = false;
    savedSource_ = document_.source;
    undo_->setClean();
    noteModified();
}

void WorkbenchDocument::noteModified()
{
    const bool now = isModified();
    if (now == modified_)
        return;
    modified_ = now;
    emit modifiedChanged(now);
}

} // namespace kw
