#include "HelpPages.hpp"

#include "UiResources.hpp"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

namespace kw {

namespace {
const QString root = QStringLiteral(":/help/");
}

QUrl HelpPages::url(const QString& page) { return QUrl("qrc:/help/" + page); }

bool HelpPages::exists(const QString& page)
{
    initUiResources();
    return !page.isEmpty() && !page.contains('/') && QFile::exists(root + page);
}

QString HelpPages::pageOf(const QUrl& url)
{
    if (url.scheme() != "qrc" || !url.path().startsWith("/help/"))
        return {};
    return url.path().mid(6);
}

QString HelpPages::text(const QString& page)
{
    if (!exists(page))
        return {};
    QFile f(root + page);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString HelpPages::title(const QString& page)
{
    for (const QString& line : text(page).split('\n'))
        if (line.startsWith("# "))
            return line.mid(2).trimmed();
    return page;
}

QStringList HelpPages::all()
{
    initUiResources();
    return QDir(root).entryList({"*.md"}, QDir::Files, QDir::Name);
}

QStringList HelpPages::links(const QString& page)
{
    // [words](target): the Markdown the pages use; no reference-style links.
    static const QRegularExpression link(R"(\]\(([^)\s]+)\))");
    QStringList out;
    for (auto it = link.globalMatch(text(page)); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

QStringList HelpPages::contents()
{
    QStringList out;
    for (const QString& target : links(contentsPage))
        if (!target.contains(':') && !out.contains(target))
            out << target;
    return out;
}

} // namespace kw
