#include "NotesPanel.hpp"

#include "util/ConfinedFolder.hpp"
#include "util/TimedFileRead.hpp"

#include <QEvent>
#include <QFontMetricsF>
#include <QImage>
#include <QResizeEvent>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>

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

void NotesPanel::resizeEvent(QResizeEvent* e)
{
    QTextBrowser::resizeEvent(e);
    if (e->size().width() != e->oldSize().width())
        fitHeadings();
}

void NotesPanel::fitHeadings()
{
    // Markdown's headings are up to twice the text's size: in a laptop's notes column a
    // title's long word broke in the middle ("Mandelbro" over "t set"). A heading is at
    // most kHeadingScale times the text, and smaller where its longest word would not fit
    // (never smaller than the text).
    const qreal base = font().pointSizeF();
    if (base <= 0)
        return;
    const qreal room = viewport()->width() - 2 * document()->documentMargin() - 12; // with slack for hinting
    QTextCursor cursor(document());
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next()) {
        const int level = b.blockFormat().headingLevel();
        if (level <= 0)
            continue;
        qreal size = base * kHeadingScale[std::min(level, 3) - 1];
        QFont bold = font();
        bold.setBold(true);
        bold.setPointSizeF(size);
        qreal longest = 0;
        for (const QString& word : b.text().split(' ', Qt::SkipEmptyParts))
            longest = std::max(longest, QFontMetricsF(bold).horizontalAdvance(word));
        if (room > 0 && longest > room)
            size = std::max(base, size * room / longest);
        // The size replaces Markdown's relative size (an adjustment of the document's font).
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment frag = it.fragment();
            QTextCharFormat f = frag.charFormat();
            f.clearProperty(QTextFormat::FontSizeAdjustment);
            f.setFontPointSize(size);
            cursor.setPosition(frag.position());
            cursor.setPosition(frag.position() + frag.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(f);
        }
    }
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
    fitHeadings();
}

} // namespace kw
