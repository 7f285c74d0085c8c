#pragma once
// The last runs of the open document: what was run (its source and settings) and
// what came back (results, timings), so two of them can be compared. A saved
// document's runs are kept between sessions (RunHistoryStore).
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"

#include <QDateTime>
#include <QObject>

#include <deque>
#include <memory>

namespace kw {

class RunHistoryStore;

class RunHistory : public QObject {
    Q_OBJECT
public:
    struct Entry {
        int number = 0; // 1, 2, ... over the document's life
        QDateTime when;
        Document document; // as it was run
        QString device;
        std::shared_ptr<const RunResult> result;
    };

    // store: where a saved document's runs are kept; null keeps them in memory only.
    explicit RunHistory(std::shared_ptr<RunHistoryStore> store = nullptr, QObject* parent = nullptr);
    static constexpr std::size_t capacity = 12; // older runs are dropped; each holds its buffers

    // Another document was opened: its kept runs replace these (none while untitled).
    void open(const QString& documentPath);
    // documentPath: where the document lives now (empty while untitled); the runs are kept there.
    void add(const Document& document, const QString& device, std::shared_ptr<const RunResult> result,
             const QString& documentPath = {});
    void clear();
    const std::deque<Entry>& entries() const { return entries_; }
    const Entry* find(int number) const;

signals:
    void changed();

private:
    std::shared_ptr<RunHistoryStore> store_;
    QString path_;
    std::deque<Entry> entries_;
    int next_ = 1;
};

} // namespace kw
