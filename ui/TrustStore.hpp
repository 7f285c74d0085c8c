#pragma once
// Remembers which documents the user trusts: the SHA-256 of the document's bytes and of
// every file it brings (doc/TrustManifest: its source file, headers, data files and
// images). A document from elsewhere opens restricted until its user trusts it; a
// changed copy of a trusted document, or a trusted document beside a swapped file, is a
// stranger again, and the window names the files that changed.
#include "doc/TrustManifest.hpp"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace kw {

class Settings;

class TrustStore {
public:
    explicit TrustStore(Settings& settings);

    // True when the user trusted these bytes together with exactly these files' contents.
    // Otherwise `changed` (if given) receives the files that differ from what was trusted
    // ("kernel.cu", "helper.h (new)", "data.npy (gone)"); empty when the bytes were never trusted.
    bool isTrusted(const QByteArray& content, const std::vector<BroughtFile>& files,
                   QStringList* changed = nullptr) const;
    void trust(const QByteArray& content, const std::vector<BroughtFile>& files);
    // Documents shipped with the program (the samples folder) are trusted.
    static bool isShipped(const QString& path, const QString& samplesDir);

    static QString hashOf(const QByteArray& content);
    // The SHA-256 of a file's contents, read in pieces; empty when it cannot be read.
    static QString hashOfFile(const std::filesystem::path& path);
    static constexpr int maxEntries = 2000;

private:
    Settings& settings_;
};

} // namespace kw
