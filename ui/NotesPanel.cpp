#include "NotesPanel.hpp"

namespace kw {

NotesPanel::NotesPanel(QWidget* parent) : QTextBrowser(parent)
{
    setOpenExternalLinks(true);
    document()->setDocumentMargin(10);
}

void NotesPanel::setNotes(const QString& title, const QString& markdown)
{
    if (title.isEmpty() && markdown.isEmpty()) {
        setMarkdown(tr("*This document has no description.*"));
        return;
    }
    setMarkdown((title.isEmpty() ? QString() : "# " + title + "\n\n") + markdown);
}

} // namespace kw
