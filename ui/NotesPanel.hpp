#pragma once
// The document's Markdown description: what a sample shows and what to try.
#include <QTextBrowser>

namespace kw {

class NotesPanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit NotesPanel(QWidget* parent = nullptr);
    void setNotes(const QString& title, const QString& markdown);
};

} // namespace kw
