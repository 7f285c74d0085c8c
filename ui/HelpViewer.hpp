#pragma once
// The user guide in a window of its own: the contents on the left, the page on the
// right (Markdown rendered by QTextBrowser), Back and Forward. A link to another page
// opens it here, a link to the web opens the browser, and a link to a page that does
// not exist says so in a bar above the page instead of showing nothing.
#include <QWidget>

class QLabel;
class QListWidget;
class QTextBrowser;
class QToolButton;

namespace kw {

class HelpViewer : public QWidget {
    Q_OBJECT
public:
    explicit HelpViewer(QWidget* parent = nullptr);

    // Shows a page by name ("checks.md"); false, with the error shown, when there is none.
    bool openPage(const QString& page);
    // What a click on a link in the current page does.
    void followLink(const QUrl& link);

    QString currentPage() const;
    QString error() const; // the error on show, empty when none
    QTextBrowser* browser() const { return browser_; }
    QListWidget* contentsList() const { return contents_; }
    QLabel* errorBar() const { return error_; }

signals:
    void externalLinkOpened(const QUrl& url); // handed to the desktop's browser

private:
    void showError(const QString& message);
    void pageShown();

    QListWidget* contents_;
    QTextBrowser* browser_;
    QLabel* error_;
    QToolButton* back_;
    QToolButton* forward_;
};

} // namespace kw
