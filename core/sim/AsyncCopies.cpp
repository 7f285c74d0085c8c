#include "sim/AsyncCopies.hpp"

#include <algorithm>

namespace kw::sim {

void AsyncCopies::clear()
{
    copies_.clear();
    std::fill(std::begin(committed_), std::end(committed_), 0u);
}

void AsyncCopies::add(PendingCopy c)
{
    c.group = committed_[c.lane];
    copies_.push_back(c);
}

void AsyncCopies::commit(std::uint32_t lanes)
{
    for (int l = 0; l < 32; ++l)
        if (lanes & (1u << l))
            ++committed_[l];
}

std::vector<PendingCopy> AsyncCopies::due(std::uint32_t lanes, std::optional<std::uint32_t> keep)
{
    std::vector<PendingCopy> out;
    auto isDue = [&](const PendingCopy& c) {
        return (lanes & (1u << c.lane)) && (!keep || std::uint64_t(c.group) + *keep < committed_[c.lane]);
    };
    for (const PendingCopy& c : copies_)
        if (isDue(c))
            out.push_back(c);
    std::erase_if(copies_, isDue);
    return out;
}

} // namespace kw::sim
