#include "RunHistory.hpp"

#include "RunHistoryStore.hpp"

namespace kw {

RunHistory::RunHistory(std::shared_ptr<RunHistoryStore> store, QObject* parent)
    : QObject(parent)
    , store_(std::move(store))
{
}

void RunHistory::open(const QString& documentPath)
{
    path_ = documentPath;
    entries_.clear();
    if (store_ && !path_.isEmpty())
        entries_ = store_->load(path_);
    next_ = entries_.empty() ? 1 : entries_.back().number + 1;
    emit changed();
}

void RunHistory::add(const Document& document, const QString& device, std::shared_ptr<const RunResult> result,
                     const QString& documentPath)
{
    entries_.push_back({next_++, QDateTime::currentDateTime(), document, device, std::move(result)});
    while (entries_.size() > capacity)
        entries_.pop_front();
    // An untitled document's runs follow it to where it is saved.
    path_ = documentPath;
    if (store_ && !path_.isEmpty())
        store_->saveLater(path_, entries_);
    emit changed();
}

void RunHistory::clear()
{
    entries_.clear();
    next_ = 1;
    if (store_ && !path_.isEmpty())
        store_->saveLater(path_, entries_);
    emit changed();
}

const RunHistory::Entry* RunHistory::find(int number) const
{
    for (const Entry& e : entries_)
        if (e.number == number)
            return &e;
    return nullptr;
}

} // namespace kw
