#pragma once
// The last writer of each 4-byte word of the block's shared memory: the warp, lane and
// instruction of the last store or atomic that touched it since the block began. An
// observer of the debugger's block runner, attached in every run of the launch
// (forwards and when run again to go back), so the state it shows is the same
// whichever way the debugger reached it. Told of memory accesses only when the kernel
// has shared memory.
#include "sim/Observer.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace kw::debug {

struct WordWriter {
    std::uint32_t warp = 0;
    std::uint32_t lane = 0;
    std::uint32_t pc = 0;
    std::uint64_t order = 0; // larger: written later (within the block)
};

class SharedWriters final : public sim::Observer {
public:
    explicit SharedWriters(std::uint32_t sharedBytes);

    std::uint8_t wants() const override { return words_.empty() ? 0 : Accesses; }
    void blockBegin(const sim::BlockState& blk, std::uint64_t linear) override;
    void memory(const sim::Warp& w, const sim::Instr& in, const sim::AccessLog& lanes) override;

    // The last writer of the bytes [offset, offset + size): of the words they span, the
    // one written last. None when no instruction of the block has written them.
    std::optional<WordWriter> lastWriter(std::uint32_t offset, std::uint32_t size) const;

private:
    std::vector<WordWriter> words_; // order 0: not written
    std::uint64_t next_ = 1;
};

} // namespace kw::debug
