#pragma once
// Settings and application data of a widget test go to Qt's test locations
// (~/.qttest/...) under an organisation named for the test, emptied before and
// removed after, so the user's real settings, recent files and recovery copies are
// never touched and tests running in parallel do not share files.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <gtest/gtest.h>

namespace kw::test {

class TestLocations {
public:
    // Create before the first QSettings of the process: QSettings caches its paths.
    explicit TestLocations(const QString& area)
    {
        QStandardPaths::setTestModeEnabled(true);
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        QCoreApplication::setOrganizationName("KernelWorkbenchTests-" + area + "-"
                                              + QString::fromUtf8(info ? info->name() : "none"));
        QSettings settings;
        settingsFile_ = settings.fileName();
        dataDir_ = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
        ok_ = settingsFile_.contains(".qttest") && dataDir_.contains(".qttest");
        if (ok_)
            clear();
    }
    ~TestLocations()
    {
        if (ok_)
            clear();
    }
    TestLocations(const TestLocations&) = delete;
    TestLocations& operator=(const TestLocations&) = delete;

    // False when the locations are not the test ones; then nothing is touched.
    bool ok() const { return ok_; }

private:
    void clear()
    {
        {
            QSettings settings;
            settings.clear();
            settings.sync();
        }
        QFile::remove(settingsFile_);
        QDir(dataDir_).removeRecursively();
        // The organisation's folders, when nothing else is in them.
        QDir().rmdir(QFileInfo(settingsFile_).absolutePath());
        QDir().rmdir(QFileInfo(dataDir_).absolutePath());
    }

    QString settingsFile_, dataDir_;
    bool ok_ = false;
};

} // namespace kw::test
