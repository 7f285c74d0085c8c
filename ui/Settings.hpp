#pragma once
// The workbench's persistent preferences. Every QSettings key lives here and
// nowhere else.
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QSettings>
#include <QStringList>

namespace kw {

class Settings {
public:
    Settings();

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& g);
    QByteArray windowState() const; // dock layout
    void setWindowState(const QByteArray& s);

    int editorFontSize() const;
    void setEditorFontSize(int points);

    bool inlineAnnotations() const;
    void setInlineAnnotations(bool on);

    // Run > Run as You Type.
    bool runAsYouType() const;
    void setRunAsYouType(bool on);

    // The user guide's getting-started page opened by itself once.
    bool gettingStartedShown() const;
    void setGettingStartedShown(bool shown);

    QString lastDevice() const;
    void setLastDevice(const QString& id);

    // Saved runners, as pairs of name and command line, in the user's order.
    QList<QPair<QString, QString>> savedRunners() const;
    void setSavedRunners(const QList<QPair<QString, QString>>& runners);
    QString lastRunner() const; // a saved runner's name; empty for this computer
    void setLastRunner(const QString& name);

    QStringList recentFiles() const;
    // Moves path to the front; keeps at most maxRecent entries.
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    static constexpr int maxRecent = 10;

    // SHA-256 hashes of the documents the user trusts (see TrustStore).
    QStringList trustedDocuments() const;
    void setTrustedDocuments(const QStringList& hashes);

private:
    QSettings s_;
};

} // namespace kw
