#include "RunHistory.hpp"

namespace kw {

void RunHistory::add(const Document& document, const QString& device, std::shared_ptr<const RunResult> result)
{
    entries_.push_back({next_++, QDateTime::currentDateTime(), document, device, std::move(result)});
    while (entries_.size() > capacity)
        entries_.pop_front();
    emit changed();
}

void RunHistory::clear()
{
    entries_.clear();
    next_ = 1;
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
