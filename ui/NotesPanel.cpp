#include "NotesPanel.hpp"

#include <QEvent>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace kw {

NotesPanel::NotesPanel(QWidget* parent) : QTextBrowser(parent)
{
    setOpenExternalLinks(true);
    document()->setDocumentMargin(10);
}

void NotesPanel::setNotes(const QString& title, const QString& markdown)
{
    if (title.isEmpty() && markdown.isEmpty())
        markdown_ = tr("*This document has no description.*");
    else
        markdown_ = (title.isEmpty() ? QString() : "# " + title + "\n\n") + markdown;
    render();
}

void NotesPanel::changeEvent(QEvent* e)
{
    QTextBrowser::changeEvent(e);
    if (e->type() == QEvent::FontChange)
        render();
}

void NotesPanel::render()
{
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
