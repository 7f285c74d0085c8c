#pragma once
// Optional shared-memory race report: two threads of a block touching the same word
// between two barriers, at least one of them writing.
#include <cstdint>
#include <vector>

namespace kw::sim {

struct LaunchState;
struct Dim3Lite { std::uint32_t x, y, z; };

class RaceDetector {
public:
    void reset(std::uint32_t sharedBytes);
    void nextEpoch() { ++epoch_; }
    // thread: linear thread index in the block; line: source line of the access.
    void access(LaunchState& launch, std::uint32_t addr, std::uint32_t size, bool write, std::uint32_t thread,
                std::uint32_t line, const Dim3Lite& blockDim);

private:
    struct Word {
        std::uint32_t epoch = 0;
        std::uint32_t writer = 0, writerLine = 0;  // writer: thread + 1, 0 none
        std::uint32_t reader = 0, readerLine = 0;  // one reader remembered
    };
    std::vector<Word> words_;
    std::uint32_t epoch_ = 1;
};

} // namespace kw::sim
