#pragma once
// Where a document's run history lives between sessions: a folder per document under
// the application's data folder, named by a hash of the document's path (never inside
// the .kwb). history.json holds each run's document and result; the output buffers are
// .npy files beside it, the newest first within a byte budget, so the folder stays small.
// A run's result is shown without waiting for the disk: saveLater writes on a thread of
// the store's own, one save at a time in the order asked.
#include "RunHistory.hpp"

#include <QString>
#include <QThreadPool>

#include <deque>
#include <map>
#include <mutex>

namespace kw {

class RunHistoryStore {
public:
    // root: where the documents' folders go; empty: <app data>/run-history.
    explicit RunHistoryStore(QString root = {});
    ~RunHistoryStore(); // after the saves handed to saveLater are written

    static constexpr qint64 bufferBudgetBytes = 64ll << 20; // per document; older buffers are dropped first
    static constexpr int maxDocuments = 40;                 // folders beyond these, least recently used, go

    QString folderFor(const QString& documentPath) const;
    // Writes what `entries` hold; buffers already on disk are not written again.
    // Returns false (and leaves what was there) when the folder cannot be written.
    bool save(const QString& documentPath, const std::deque<RunHistory::Entry>& entries) const;
    // save, on the store's thread; a save not yet begun is dropped when a newer one of
    // the same document is asked for (it would be overwritten at once).
    void saveLater(const QString& documentPath, std::deque<RunHistory::Entry> entries);
    // Returns when every save handed to saveLater is on disk.
    void waitForSaves();
    // The runs kept for the document, oldest first; none when there are none or the file is
    // unreadable. Saves still under way are waited for first.
    std::deque<RunHistory::Entry> load(const QString& documentPath);

private:
    void dropOldDocuments() const;
    QString root_;
    QThreadPool writer_;
    std::mutex latestMutex_;
    std::map<QString, quint64> latest_; // per document, the newest save asked for
    quint64 saves_ = 0;
};

} // namespace kw
