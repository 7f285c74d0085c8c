#include "TrustStore.hpp"

#include "Settings.hpp"

#include <QCryptographicHash>
#include <QFile>
#include <QMap>
#include <QObject>
#include <QUrl>

#include <QDir>
#include <QFileInfo>
#include <algorithm>

namespace kw {

TrustStore::TrustStore(Settings& settings)
    : settings_(settings)
{
}

QString TrustStore::hashOf(const QByteArray& content)
{
    return QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
}

QString TrustStore::hashOfFile(const std::filesystem::path& path)
{
    QFile f(QString::fromStdString(path.string()));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (!h.addData(&f))
        return {};
    return QString::fromLatin1(h.result().toHex());
}

namespace {

// One record: "DOCHASH" followed by " NAME=HASH" for each file, in the manifest's order.
// Names are the files' paths relative to the document's folder, percent-encoded.
QString recordOf(const QString& docHash, const std::vector<BroughtFile>& files)
{
    QString r = docHash;
    for (const BroughtFile& f : files)
        r += " " + QString::fromLatin1(QUrl::toPercentEncoding(QString::fromStdString(f.shownAs))) + "="
            + TrustStore::hashOfFile(f.path);
    return r;
}

QMap<QString, QString> filesOfRecord(const QString& record)
{
    QMap<QString, QString> files;
    const QStringList parts = record.split(' ', Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const qsizetype eq = parts[i].lastIndexOf('=');
        files.insert(QUrl::fromPercentEncoding(parts[i].left(eq).toLatin1()), parts[i].mid(eq + 1));
    }
    return files;
}

} // namespace

bool TrustStore::isTrusted(const QByteArray& content, const std::vector<BroughtFile>& files, QStringList* changed) const
{
    const QString docHash = hashOf(content);
    const QString now = recordOf(docHash, files);
    const QStringList records = settings_.trustedDocuments();
    if (records.contains(now))
        return true;
    if (changed) {
        changed->clear();
        // The newest record of these bytes says what was trusted with them.
        for (const QString& r : records) {
            if (r.section(' ', 0, 0) != docHash)
                continue;
            const QMap<QString, QString> before = filesOfRecord(r), after = filesOfRecord(now);
            for (auto it = after.begin(); it != after.end(); ++it)
                if (!before.contains(it.key()))
                    *changed << it.key() + QObject::tr(" (new)");
                else if (before.value(it.key()) != it.value())
                    *changed << it.key();
            for (auto it = before.begin(); it != before.end(); ++it)
                if (!after.contains(it.key()))
                    *changed << it.key() + QObject::tr(" (gone)");
            break;
        }
    }
    return false;
}

void TrustStore::trust(const QByteArray& content, const std::vector<BroughtFile>& files)
{
    QStringList list = settings_.trustedDocuments();
    const QString docHash = hashOf(content);
    // One record per document bytes: the files trusted last replace those before.
    list.erase(
        std::remove_if(list.begin(), list.end(), [&](const QString& r) { return r.section(' ', 0, 0) == docHash; }),
        list.end());
    list.prepend(recordOf(docHash, files));
    while (list.size() > maxEntries)
        list.removeLast();
    settings_.setTrustedDocuments(list);
}

bool TrustStore::isShipped(const QString& path, const QString& samplesDir)
{
    if (samplesDir.isEmpty())
        return false;
    // Links resolved on both sides, so a link into the samples folder is not a sample.
    const QString file = QFileInfo(path).canonicalFilePath();
    const QString dir = QFileInfo(samplesDir).canonicalFilePath();
    return !file.isEmpty() && !dir.isEmpty() && file.startsWith(dir + QLatin1Char('/'));
}

} // namespace kw
