#pragma once
// The document's Markdown description: what a sample shows and what to try. Code in
// the notes follows the panel's font size (presentation mode enlarges it too). Images
// come only from regular files inside the document's folder, of at most kMaxImageBytes:
// a description naming /dev/zero, a FIFO or a pty cannot block or flood the window.
#include <QTextBrowser>

#include <filesystem>

namespace kw {

class NotesPanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit NotesPanel(QWidget* parent = nullptr);
    // `folder`: the document's folder, where its images lie (empty: no images).
    void setNotes(const QString& title, const QString& markdown, const std::filesystem::path& folder = {});

    static constexpr qint64 kMaxImageBytes = 16 << 20;

protected:
    void changeEvent(QEvent* e) override;
    QVariant loadResource(int type, const QUrl& name) override;

private:
    void render();
    QString markdown_;
    std::filesystem::path folder_;
};

} // namespace kw
