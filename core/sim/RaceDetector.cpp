#include "sim/RaceDetector.hpp"

#include "sim/LaunchState.hpp"

#include <fmt/format.h>

namespace kw::sim {

void RaceDetector::reset(std::uint32_t sharedBytes) {
    words_.assign((sharedBytes + 3) / 4, Word{});
    epoch_ = 1;
}

namespace {
std::string threadName(std::uint32_t t, const Dim3Lite& b) {
    return fmt::format("({},{},{})", t % b.x, (t / b.x) % b.y, t / (b.x * b.y));
}
} // namespace

void RaceDetector::access(LaunchState& launch, std::uint32_t addr, std::uint32_t size, bool write,
                          std::uint32_t thread, std::uint32_t line, const Dim3Lite& blockDim) {
    const std::uint32_t me = thread + 1;
    for (std::uint32_t w = addr / 4; w <= (addr + size - 1) / 4 && w < words_.size(); ++w) {
        Word& e = words_[w];
        if (e.epoch != epoch_) e = Word{epoch_, 0, 0, 0, 0};
        auto report = [&](std::uint32_t other, std::uint32_t otherLine, const char* otherKind) {
            // One report per pair of source lines: the first pair of threads found names it.
            if (!launch.firstTime(fmt::format("race {} {} {} {}", otherLine, otherKind, line, write))) return;
            launch.warn(fmt::format(
                "shared-memory race at shared offset {}: thread {} {} at line {} and thread {} {} at line {} "
                "without a barrier between them",
                w * 4, threadName(other - 1, blockDim), otherKind, otherLine, threadName(thread, blockDim),
                write ? "writes" : "reads", line));
        };
        if (e.writer && e.writer != me) report(e.writer, e.writerLine, "writes");
        else if (write && e.reader && e.reader != me) report(e.reader, e.readerLine, "reads");
        if (write) { e.writer = me; e.writerLine = line; }
        else if (!e.reader || e.reader == me) { e.reader = me; e.readerLine = line; }
    }
}

} // namespace kw::sim
