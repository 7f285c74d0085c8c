#pragma once
// Remembers which documents the user trusts, by the SHA-256 of their bytes, so a
// document from elsewhere opens restricted until its user trusts it, and a
// changed copy of a trusted document is a stranger again.
#include <QByteArray>
#include <QString>

namespace kw {

class Settings;

class TrustStore {
public:
    explicit TrustStore(Settings& settings);

    bool isTrusted(const QByteArray& content) const;
    void trust(const QByteArray& content);
    // Documents shipped with the program (the samples folder) are trusted.
    static bool isShipped(const QString& path, const QString& samplesDir);

    static QString hashOf(const QByteArray& content);
    static constexpr int maxEntries = 2000;

private:
    Settings& settings_;
};

} // namespace kw
