#include "debug/SharedWriters.hpp"

#include "sim/Warp.hpp"

#include <algorithm>

namespace kw::debug {

using namespace kw::sim;

SharedWriters::SharedWriters(std::uint32_t sharedBytes)
    : words_((std::uint64_t(sharedBytes) + 3) / 4)
{
}

void SharedWriters::blockBegin(const BlockState& /*blk*/, std::uint64_t /*linear*/)
{
    std::fill(words_.begin(), words_.end(), WordWriter{});
    next_ = 1;
}

void SharedWriters::memory(const Warp& w, const Instr& in, const AccessLog& log)
{
    if (accessKind(in, log) == AccessKind::Load)
        return;
    const auto pc = std::uint32_t(&in - w.fn->code.data());
    const std::uint64_t order = next_++;
    for (std::uint32_t m = log.inSpace[static_cast<int>(Space::Shared)]; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const std::uint64_t first = log.addr[l] / 4, end = (log.addr[l] + log.size[l] + 3) / 4;
        for (std::uint64_t word = first; word < end && word < words_.size(); ++word)
            words_[word] = {w.warpId, std::uint32_t(l), pc, order};
    }
}

std::optional<WordWriter> SharedWriters::lastWriter(std::uint32_t offset, std::uint32_t size) const
{
    std::optional<WordWriter> last;
    for (std::uint64_t word = offset / 4; word < (std::uint64_t(offset) + size + 3) / 4 && word < words_.size(); ++word)
        if (words_[word].order && (!last || words_[word].order > last->order))
            last = words_[word];
    return last;
}

} // namespace kw::debug
