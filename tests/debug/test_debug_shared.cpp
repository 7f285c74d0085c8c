// The shared-memory view: each word's value, bank and last writer (warp, lane, thread,
// line) against the host's account of which thread wrote it last; a block begins
// with no writers; going back shows the writers the forward run had there.
#include "DebugTestSupport.hpp"

#include <gtest/gtest.h>

namespace {

using namespace kwtest;
using namespace kw::debug;

const std::string kWriters = R"(
__global__ void writers(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t + 100 * blockIdx.x; // first
    __syncthreads();
    if (t % 3 == 0)
        s[63 - t] = -t; // second
    __syncthreads();
    out[blockIdx.x * 64 + t] = s[t]; // read
}
)";

std::unique_ptr<DebugSession> writersSession()
{
    return debugSession(kWriters, "writers", {typed("out", std::vector<int>(128, 0))}, {bufArg(0)},
                        config({2, 1, 1}, {64, 1, 1}));
}

// Word k after both barriers of block b: its value and the thread and line that wrote it last.
struct Expected {
    int value;
    std::uint32_t thread;
    int line;
};
Expected expectedWord(std::uint32_t k, std::uint32_t block)
{
    const std::uint32_t t = 63 - k;
    if (t % 3 == 0)
        return {-int(t), t, lineOf(kWriters, "// second")};
    return {int(k + 100 * block), k, lineOf(kWriters, "// first")};
}

void expectWriters(const SharedMemoryView& v, std::uint32_t block)
{
    ASSERT_EQ(v.words.size(), 64u);
    EXPECT_EQ(v.bytes, 256u);
    for (std::uint32_t k = 0; k < 64; ++k) {
        const SharedWord& w = v.words[k];
        const Expected e = expectedWord(k, block);
        EXPECT_EQ(w.offset, 4 * k);
        EXPECT_EQ(w.bank, k % 32);
        EXPECT_EQ(w.value, e.value) << "word " << k;
        ASSERT_TRUE(w.lastWriter) << "word " << k;
        EXPECT_EQ(w.lastWriter->thread, e.thread) << "word " << k;
        EXPECT_EQ(w.lastWriter->warp, e.thread / 32) << "word " << k;
        EXPECT_EQ(w.lastWriter->lane, e.thread % 32) << "word " << k;
        EXPECT_EQ(int(w.lastWriter->where.line), e.line) << "word " << k;
    }
}

TEST(DebugShared, EachWordNamesItsLastWriter)
{
    KW_REQUIRE_NVRTC();
    auto s = writersSession();
    ASSERT_TRUE(s);
    for (const SharedWord& w : s->sharedMemory(kw::DType::I32).words)
        EXPECT_FALSE(w.lastWriter) << "word " << w.offset / 4 << " written before the first instruction";
    s->addBreakpoint({"", std::uint32_t(lineOf(kWriters, "// read"))});
    const Stop hit = s->resume(Motion::Continue);
    ASSERT_EQ(hit.reason, StopReason::Breakpoint);
    ASSERT_EQ(hit.block, 0u);
    const SharedMemoryView v = s->sharedMemory(kw::DType::I32);
    EXPECT_EQ(v.block, 0u);
    expectWriters(v, 0);
    const std::uint64_t there = s->position();

    // Block 1 begins with no writers, and ends with its own.
    s->removeBreakpoint(1);
    s->focusBlock(1);
    for (const SharedWord& w : s->sharedMemory(kw::DType::I32).words)
        EXPECT_FALSE(w.lastWriter) << "word " << w.offset / 4 << " of block 1 before it wrote";
    s->addBreakpoint({"", std::uint32_t(lineOf(kWriters, "// read"))});
    ASSERT_EQ(s->resume(Motion::Continue).block, 1u);
    expectWriters(s->sharedMemory(kw::DType::I32), 1);

    // Back to block 0's stop: the writers the forward run had.
    s->goTo(there);
    expectWriters(s->sharedMemory(kw::DType::I32), 0);
}

} // namespace
