#pragma once
// The document's Markdown description: what a sample shows and what to try. Code in
// the notes follows the panel's font size (presentation mode enlarges it too), and a
// heading is sized so that its longest word fits the panel's width. Images
// come only from regular files inside the document's folder, of at most kMaxImageBytes,
// read off the UI thread within kImageReadLimit: a description naming /dev/zero, a FIFO,
// a pty or a file on a stalled mount cannot block or flood the window.
#include <QTextBrowser>

#include <chrono>
#include <filesystem>

namespace kw {

class NotesPanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit NotesPanel(QWidget* parent = nullptr);
    // `folder`: the document's folder, where its images lie (empty: no images).
    void setNotes(const QString& title, const QString& markdown, const std::filesystem::path& folder = {});

    static constexpr qint64 kMaxImageBytes = 16 << 20;
    static constexpr std::chrono::milliseconds kImageReadLimit{2000};
    // A heading's size over the text's, for levels 1, 2 and 3 and below, where it fits.
    static constexpr qreal kHeadingScale[3] = {1.6, 1.3, 1.15};

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    QVariant loadResource(int type, const QUrl& name) override;

private:
    void render();
    void fitHeadings();
    QString markdown_;
    std::filesystem::path folder_;
    bool stalled_ = false; // an image read ran out of time: read no more until the next render
};

} // namespace kw
