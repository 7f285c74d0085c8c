#pragma once
// Settings and application data of a widget test go to Qt's test locations
// (~/.qttest/...) under an organisation of the test's own, emptied first, so the
// user's real settings, recent files and recovery copies are never touched.
#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace kw::test {

// Call before the first QSettings of the process: QSettings caches its paths.
// Returns false when the locations are not the test ones (then nothing is cleared).
inline bool useTestLocations(const QString& organisation)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(organisation);
    QSettings settings;
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (!settings.fileName().contains(".qttest") || !data.contains(".qttest"))
        return false;
    settings.clear();
    settings.sync();
    QDir(data).removeRecursively();
    return true;
}

} // namespace kw::test
