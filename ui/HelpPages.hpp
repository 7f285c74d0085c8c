#pragma once
// The user guide: Markdown pages compiled into the program as Qt resources (help/),
// so the .deb, the portable archive and the build tree all carry the same pages.
// The order of the contents is the order of the links on the contents page.
#include <QString>
#include <QStringList>
#include <QUrl>

namespace kw {

class HelpPages {
public:
    static constexpr const char* contentsPage = "index.md";
    static constexpr const char* gettingStartedPage = "getting-started.md";

    static QUrl url(const QString& page); // qrc:/help/PAGE
    static bool exists(const QString& page);
    // The page a URL names, when it is one of ours ("checks.md"); empty for another place.
    static QString pageOf(const QUrl& url);
    static QString text(const QString& page);  // the Markdown, empty when missing
    static QString title(const QString& page); // its first "# " heading
    static QStringList all();                  // every page, by name
    static QStringList contents();             // the pages the contents page links to, in its order
    // The targets of a page's links, as written ("debugger.md", "https://…").
    static QStringList links(const QString& page);
};

} // namespace kw
