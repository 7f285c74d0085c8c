#include "NotesPanel.hpp"

#include "util/ConfinedFolder.hpp"
#include "util/TimedFileRead.hpp"

#include <QEvent>
#include <QImage>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>

namespace kw {

NotesPanel::NotesPanel(QWidget* parent)
    : QTextBrowser(parent)
{
    setOpenExternalLinks(true);
    document()->setDocumentMargin(10);
}

void NotesPanel::setNotes(const QString& title, const QString& markdown, const std::filesystem::path& folder)
{
    folder_ = folder;
    if (title.isEmpty() && markdown.isEmpty())
        markdown_ = tr("*This document has no description.*");
    else
        markdown_ = (title.isEmpty() ? QString() : "# " + title + "\n\n") + markdown;
    render();
}

QVariant NotesPanel::loadResource(int type, const QUrl& name)
{
    // Nothing but images, and those only from the document's folder. A refusal is an
    // empty value, not a null one: on a null one QTextDocument reads the path itself
    // (and blocks on a FIFO or a pty, or reads /dev/zero until memory runs out).
    const QVariant refused = type == QTextDocument::ImageResource ? QVariant(QImage()) : QVariant(QByteArray());
    if (type != QTextDocument::ImageResource || folder_.empty())
        return refused;
    const QString path = name.isLocalFile() ? name.toLocalFile() : name.path();
    if (path.isEmpty() || (!name.scheme().isEmpty() && !name.isLocalFile()))
        return refused;
    const ConfinedFolder folder(folder_);
    const auto resolved = folder.resolveFile(std::filesystem::path(path.toStdString()));
    if (resolved.status != ConfinedFolder::Status::Inside)
        return refused;
    if (stalled_)
        return refused;
    const TimedRead read = readFileWithin(resolved.path, kMaxImageBytes, kImageReadLimit);
    stalled_ = read.status == TimedReadStatus::TimedOut;
    if (read.status != TimedReadStatus::Read)
        return refused;
    return QImage::fromData(QByteArray::fromStdString(read.bytes));
}

void NotesPanel::changeEvent(QEvent* e)
{
    QTextBrowser::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        render();
}

void NotesPanel::render()
{
    stalled_ = false;
    setMarkdown(markdown_);
    // The Markdown reader gives code the system's fixed font at its own size; give it
    // the panel's size instead, so it grows with the rest of the text.
    const qreal size = font().pointSizeF();
    if (size <= 0)
        return;
    QTextCursor cursor(document());
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next()) {
        const bool codeBlock = b.blockFormat().hasProperty(QTextFormat::BlockCodeFence);
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment frag = it.fragment();
            if (!frag.isValid() || !(codeBlock || frag.charFormat().fontFixedPitch()))
                continue;
            cursor.setPosition(frag.position());
            cursor.setPosition(frag.position() + frag.length(), QTextCursor::KeepAnchor);
            QTextCharFormat f;
            f.setFontPointSize(size);
            cursor.mergeCharFormat(f);
        }
    }
}

} // namespace kw
