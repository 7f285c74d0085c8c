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
    return DocumentReader::parse(f.readAll().toStdString(), origin().toStdString());
}

void RecoveryCopy::remove()
{
    QFile::remove(file());
    QFile::remove(file() + ".origin");
}

} // namespace kw
