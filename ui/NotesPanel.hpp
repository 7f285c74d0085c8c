#pragma once
// The document's Markdown description: what a sample shows and what to try. Code in
// the notes follows the panel's font size (presentation mode enlarges it too).
#include <QTextBrowser>

namespace kw {

class NotesPanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit NotesPanel(QWidget* parent = nullptr);
    void setNotes(const QString& title, const QString& markdown);

protected:
    void changeEvent(QEvent* e) override;

private:
    void render();
    QString markdown_;
};

} // namespace kw
