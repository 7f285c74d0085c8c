#include "TrustStore.hpp"

#include "Settings.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

namespace kw {

TrustStore::TrustStore(Settings& settings) : settings_(settings) {}

QString TrustStore::hashOf(const QByteArray& content)
{
    return QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
}

bool TrustStore::isTrusted(const QByteArray& content) const
{
    return settings_.trustedDocuments().contains(hashOf(content));
}

void TrustStore::trust(const QByteArray& content)
{
    QStringList list = settings_.trustedDocuments();
    const QString h = hashOf(content);
    list.removeAll(h);
    list.prepend(h);
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
