#pragma once
// The last runs of the open document: what was run (its source and settings) and
// what came back (results, timings), so two of them can be compared.
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"

#include <QDateTime>
#include <QObject>

#include <deque>
#include <memory>

namespace kw {

class RunHistory : public QObject {
    Q_OBJECT
public:
    struct Entry {
        int number = 0; // 1, 2, ... since the document was opened
        QDateTime when;
        Document document; // as it was run
        QString device;
        std::shared_ptr<const RunResult> result;
    };

    explicit RunHistory(QObject* parent = nullptr)
        : QObject(parent)
    {
    }
    static constexpr std::size_t capacity = 12; // older runs are dropped; each holds its buffers

    void add(const Document& document, const QString& device, std::shared_ptr<const RunResult> result);
    void clear(); // another document was opened
    const std::deque<Entry>& entries() const { return entries_; }
    const Entry* find(int number) const;

signals:
    void changed();

private:
    std::deque<Entry> entries_;
    int next_ = 1;
};

} // namespace kw
