#pragma once
// Where a document's run history lives between sessions: a folder per document under
// the application's data folder, named by a hash of the document's path (never inside
// the .kwb). history.json holds each run's document and result; the output buffers are
// .npy files beside it, the newest first within a byte budget, so the folder stays small.
#include "RunHistory.hpp"

#include <QString>

#include <deque>

namespace kw {

class RunHistoryStore {
public:
    // root: where the documents' folders go; empty: <app data>/run-history.
    explicit RunHistoryStore(QString root = {});

    static constexpr qint64 bufferBudgetBytes = 64ll << 20; // per document; older buffers are dropped first
    static constexpr int maxDocuments = 40;                 // folders beyond these, least recently used, go

    QString folderFor(const QString& documentPath) const;
    // Writes what `entries` hold; buffers already on disk are not written again.
    // Returns false (and leaves what was there) when the folder cannot be written.
    bool save(const QString& documentPath, const std::deque<RunHistory::Entry>& entries) const;
    // The runs kept for the document, oldest first; none when there are none or the file is unreadable.
    std::deque<RunHistory::Entry> load(const QString& documentPath) const;

private:
    void dropOldDocuments() const;
    QString root_;
};

} // namespace kw
