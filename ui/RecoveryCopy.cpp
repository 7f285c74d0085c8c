#include "RecoveryCopy.hpp"

#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <stdexcept>

namespace kw {

QString RecoveryCopy::file()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath("recovery.kwb");
}

bool RecoveryCopy::exists() { return QFileInfo::exists(file()); }

void RecoveryCopy::write(const Document& doc, const QString& originPath)
{
    Document copy = doc;
    copy.sourceFile.clear(); // self-contained: the source travels inline
    QDir().mkpath(QFileInfo(file()).absolutePath());
    DocumentWriter::writeFile(copy, file().toStdString());
    QSaveFile origin(file() + ".origin");
    if (origin.open(QIODevice::WriteOnly)) {
        origin.write(originPath.toUtf8());
        origin.commit();
    }
    // The copy keeps the trust its document had when it was written.
    if (doc.trust == Trust::Trusted)
        QFile(file() + ".trusted").open(QIODevice::WriteOnly);
    else
        QFile::remove(file() + ".trusted");
}

QString RecoveryCopy::origin()
{
    QFile f(file() + ".origin");
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

Document RecoveryCopy::read()
{
    QFile f(file());
    if (!f.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + file().toStdString());
    const Trust trust = QFileInfo::exists(file() + ".trusted") ? Trust::Trusted : Trust::Untrusted;
    // Parsed under the original path, so files the document names resolve beside it.
    return DocumentReader::parse(f.readAll().toStdString(), origin().toStdString(), trust);
}

void RecoveryCopy::remove()
{
    QFile::remove(file());
    QFile::remove(file() + ".origin");
    QFile::remove(file() + ".trusted");
}

} // namespace kw
