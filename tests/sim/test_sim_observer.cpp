// An observer attached to the block runner sees what the profile collector counts:
// the same instructions per line, global loads and stores, shared accesses, atomics
// and barriers, on kernels run through the simulator's own launch pieces.
#include "MixedKernel.hpp"
#include "PtxHarness.hpp"
#include "SimBenchKernels.hpp"
#include "SimTestSupport.hpp"
#include "SteppedLaunch.hpp"
#include "sim/ProfileCollector.hpp"
#include "sim/Warp.hpp"

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace kwtest;
using namespace kw::sim;

// Counts per source line, as the profile names them, from the events alone.
class CountingObserver : public Observer {
public:
    std::map<int, kw::ProfileCounters> lines;
    std::uint64_t arrivals = 0, releases = 0, blocksBegun = 0, blocksEnded = 0;

    std::uint8_t wants() const override { return Issues | Accesses; }
    void blockBegin(const BlockState&, std::uint64_t) override { ++blocksBegun; }
    void blockEnd(const BlockState&, std::uint64_t) override { ++blocksEnded; }
    void issue(const Warp& w, const Instr& in, std::uint32_t) override
    {
        ++lines[int(in.line)].inst_executed;
        lines[int(in.line)].thread_inst_executed += std::uint64_t(__builtin_popcount(w.mask));
    }
    void memory(const Warp&, const Instr& in, const AccessLog& lanes) override
    {
        if (in.ctrl != Ctrl::None)
            return; // printf's string reads
        kw::ProfileCounters& c = lines[int(in.line)];
        const bool global = lanes.inSpace[int(Space::Global)], shared = lanes.inSpace[int(Space::Shared)];
        switch (accessKind(in, lanes)) {
        case AccessKind::Atomic: c.atomic_requests += std::uint64_t(global) + std::uint64_t(shared); break;
        case AccessKind::Store:
            c.global_st_requests += global;
            c.shared_st_requests += shared;
            break;
        case AccessKind::Load:
            c.global_ld_requests += global;
            c.shared_ld_requests += shared;
            break;
        }
    }
    void barrierArrive(const Warp&, const Instr&, std::uint32_t) override { ++arrivals; }
    void barrierRelease(const std::vector<Warp>&, const Instr&) override { ++releases; }
};

struct Counted {
    CountingObserver events;
    kw::KernelProfile profile;
    std::uint64_t barrierIssues = 0; // issues of bar instructions, from the profile's per-pc counters
};

Counted countBoth(const kw::KernelImage& img, std::vector<kw::BufferArg>& buffers,
                  const std::vector<kw::LaunchArg>& args, kw::LaunchConfig cfg)
{
    cfg.profile.enabled = true;
    SteppedLaunch s(img, buffers, args, cfg);
    Counted c;
    s.run->makeStepper().observe(c.events);
    LaunchStatus st;
    while ((st = s.run->advance()) == LaunchStatus::BlockDone) { }
    EXPECT_EQ(st, LaunchStatus::Finished);
    GridRun grid = s.run->finish(1);
    std::vector<const ProfileCollector*> collectors;
    for (const auto& p : grid.profiles)
        collectors.push_back(p.get());
    c.profile = mergeProfile(*s.module, s.function(), collectors, 0);
    for (const auto* p : collectors)
        for (std::size_t pc = 0; pc < p->pcs.size(); ++pc)
            if (s.function().code[pc].ctrl == Ctrl::Bar)
                c.barrierIssues += p->pcs[pc].counters.inst_executed;
    return c;
}

void expectSameCounts(const Counted& c)
{
    ASSERT_FALSE(c.profile.lines.empty());
    std::uint64_t instructions = 0;
    for (const kw::LineProfile& line : c.profile.lines) {
        SCOPED_TRACE("line " + std::to_string(line.line));
        const auto it = c.events.lines.find(line.line);
        ASSERT_NE(it, c.events.lines.end());
        const kw::ProfileCounters& mine = it->second;
        EXPECT_EQ(mine.inst_executed, line.counters.inst_executed);
        EXPECT_EQ(mine.thread_inst_executed, line.counters.thread_inst_executed);
        EXPECT_EQ(mine.global_ld_requests, line.counters.global_ld_requests);
        EXPECT_EQ(mine.global_st_requests, line.counters.global_st_requests);
        EXPECT_EQ(mine.shared_ld_requests, line.counters.shared_ld_requests);
        EXPECT_EQ(mine.shared_st_requests, line.counters.shared_st_requests);
        EXPECT_EQ(mine.atomic_requests, line.counters.atomic_requests);
        instructions += line.counters.inst_executed;
    }
    EXPECT_GT(instructions, 0u);
    EXPECT_EQ(c.events.arrivals, c.barrierIssues);
}

TEST(SimObserver, CountsWhatTheProfileCountsOnAMixedKernel)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kMixedSource, "mixed");
    ASSERT_TRUE(img);
    MixedBuffers m;
    const Counted c = countBoth(*img, m.buffers, m.args, m.config);
    expectSameCounts(c);
    EXPECT_EQ(c.events.blocksBegun, 3u);
    EXPECT_EQ(c.events.blocksEnded, 3u);
    EXPECT_EQ(c.events.releases, 6u);     // two barriers in each of three blocks
    EXPECT_EQ(c.events.arrivals, 6u * 2); // two warps arrive at each
    const int call = lineOf(kMixedSource, "// call site");
    const auto atomicLine = call + 2;
    EXPECT_EQ(c.events.lines.at(atomicLine).atomic_requests, 6u); // one request per warp
}

TEST(SimObserver, CountsWhatTheProfileCountsOnTiledMatmul)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kTiledMatmulSource, "matmul");
    ASSERT_TRUE(img);
    const int n = 40; // partial tiles at the edges
    std::vector<float> a(n * n, 1.5f), b(n * n, 2.0f);
    std::vector<kw::BufferArg> bufs{buffer("A", a), buffer("B", b), buffer("C", std::vector<float>(n * n, 0))};
    const Counted c
        = countBoth(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)}, config({3, 3}, {16, 16}));
    expectSameCounts(c);
    EXPECT_EQ(c.events.releases, 9u * 3 * 2); // three tiles, two barriers each, in nine blocks
    EXPECT_FLOAT_EQ(values<float>(bufs[2])[n * n - 1], 1.5f * 2.0f * n);
}

TEST(SimObserver, CountsWhatTheProfileCountsOnAddVectors)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kAddVectorsSource, "add_vectors");
    ASSERT_TRUE(img);
    const int n = 1000;
    std::vector<float> a(n, 1), b(n, 2);
    std::vector<kw::BufferArg> bufs{buffer("a", a), buffer("b", b), buffer("c", std::vector<float>(n, 0))};
    const Counted c = countBoth(*img, bufs, {bufArg(0), bufArg(1), bufArg(2), scalar<int>(n)}, config({4}, {256}));
    expectSameCounts(c);
    EXPECT_EQ(c.events.releases, 0u);
    std::uint64_t loads = 0;
    for (const auto& [line, counters] : c.events.lines)
        loads += counters.global_ld_requests;
    EXPECT_EQ(loads, 2u * ((n + 31) / 32)); // a[i] and b[i] per warp with a lane in range
}

} // namespace

namespace {

// Issues per pc and memory events per line, as an observer sees them.
class PcObserver : public Observer {
public:
    std::map<std::uint32_t, std::uint64_t> issues;
    std::map<int, std::uint64_t> accesses;
    std::uint8_t wants() const override { return Issues | Accesses; }
    void issue(const Warp& w, const Instr&, std::uint32_t) override { ++issues[w.pc]; }
    void memory(const Warp&, const Instr& in, const AccessLog&) override { ++accesses[int(in.line)]; }
};

PcObserver observeWith(const kw::KernelImage& img, const std::vector<std::uint8_t>* filter)
{
    MixedBuffers m;
    SteppedLaunch s(img, m.buffers, m.args, m.config);
    PcObserver o;
    BlockRunner& runner = s.run->makeStepper();
    runner.observe(o);
    if (filter)
        runner.setIssueFilter(filter->data());
    LaunchStatus st;
    while ((st = s.run->advance()) == LaunchStatus::BlockDone) { }
    EXPECT_EQ(st, LaunchStatus::Finished);
    return o;
}

} // namespace

// The issue filter: only the flagged pcs are announced, each as often as without it; every
// memory event still comes.
TEST(SimObserver, AnIssueFilterAnnouncesOnlyItsPcsAndEveryAccess)
{
    KW_REQUIRE_NVRTC();
    auto img = compile(kMixedSource, "mixed");
    ASSERT_TRUE(img);
    const PcObserver all = observeWith(*img, nullptr);
    std::vector<std::uint8_t> filter(4096, 0);
    for (std::size_t pc = 0; pc < filter.size(); pc += 3)
        filter[pc] = 1;
    const PcObserver some = observeWith(*img, &filter);
    std::uint64_t announced = 0;
    for (const auto& [pc, n] : all.issues) {
        if (filter.at(pc)) {
            EXPECT_EQ(some.issues.count(pc) ? some.issues.at(pc) : 0u, n) << "pc " << pc;
            announced += n;
        } else
            EXPECT_EQ(some.issues.count(pc), 0u) << "pc " << pc;
    }
    EXPECT_GT(announced, 0u);
    EXPECT_EQ(some.accesses, all.accesses);
    EXPECT_FALSE(all.accesses.empty());
}

namespace {

// Every memory event's log, in order.
class AccessRecorder : public Observer {
public:
    std::vector<AccessLog> logs;
    std::uint8_t wants() const override { return Accesses; }
    void memory(const Warp&, const Instr&, const AccessLog& lanes) override { logs.push_back(lanes); }
};

struct Recorded {
    std::vector<AccessLog> logs;
    std::vector<std::uint64_t> out;
};

// A global load, a shared store and a generic load from shared by `threads` threads of one warp.
Recorded recordAccesses(unsigned threads)
{
    kw::KernelImage img;
    img.name = img.loweredName = "t";
    img.ptx = ptxModule(R"(
    ld.global.u64 %rd1, [%rd27];
    shl.b32 %r2, %r31, 2;
    st.shared.u32 [%r2+8], %r31;
    mov.u64 %rd3, sh;
    cvta.shared.u64 %rd4, %rd3;
    add.s64 %rd5, %rd4, %rd29;
    ld.u32 %r3, [%rd5+4];
    cvt.u64.u32 %rd6, %r3;
    add.s64 %rd1, %rd1, %rd6;
    st.global.u64 [%rd28], %rd1;
)",
                        ".shared .align 8 .b8 sh[256];\n");
    std::vector<std::uint64_t> in(threads);
    for (unsigned l = 0; l < threads; ++l)
        in[l] = 1000 * (l + 1);
    std::vector<kw::BufferArg> bufs{buffer("out", std::vector<std::uint64_t>(threads)), buffer("in", in)};
    SteppedLaunch s(img, bufs, {bufArg(0), bufArg(1)}, config({1}, {threads}));
    AccessRecorder rec;
    s.run->makeStepper().observe(rec);
    LaunchStatus st;
    while ((st = s.run->advance()) == LaunchStatus::BlockDone) { }
    EXPECT_EQ(st, LaunchStatus::Finished);
    return {rec.logs, values<std::uint64_t>(bufs[0])};
}

} // namespace

// A whole warp's accesses, checked and noted in one pass, are noted as a part of a warp's
// are, lane by lane: each lane's space, address and size, and the values are the same.
TEST(SimObserver, AWholeWarpsAccessesAreNotedAsEachLanesAre)
{
    const Recorded whole = recordAccesses(32), part = recordAccesses(31);
    ASSERT_EQ(whole.logs.size(), 4u);
    ASSERT_EQ(part.logs.size(), 4u);
    const Space spaces[] = {Space::Global, Space::Shared, Space::Shared, Space::Global};
    const bool writes[] = {false, true, false, true};
    const std::uint32_t sizes[] = {8, 4, 4, 8};
    for (int e = 0; e < 4; ++e) {
        SCOPED_TRACE("access " + std::to_string(e));
        const AccessLog& w = whole.logs[e];
        const AccessLog& p = part.logs[e];
        EXPECT_EQ(w.lanes, 0xffffffffu);
        EXPECT_EQ(p.lanes, 0x7fffffffu);
        for (int s = 0; s < 6; ++s) {
            EXPECT_EQ(w.inSpace[s], s == int(spaces[e]) ? 0xffffffffu : 0u) << "space " << s;
            EXPECT_EQ(p.inSpace[s], s == int(spaces[e]) ? 0x7fffffffu : 0u) << "space " << s;
        }
        EXPECT_EQ(w.write, writes[e]);
        EXPECT_EQ(p.write, writes[e]);
        for (int l = 0; l < 31; ++l) {
            EXPECT_EQ(w.size[l], sizes[e]) << "lane " << l;
            EXPECT_EQ(w.addr[l], p.addr[l]) << "lane " << l;
            EXPECT_EQ(p.size[l], sizes[e]) << "lane " << l;
        }
        EXPECT_EQ(w.size[31], sizes[e]);
        EXPECT_EQ(w.addr[31] - w.addr[0], (e == 1 ? 4u : 8u) * 31);
    }
    for (int l = 0; l < 32; ++l) {
        EXPECT_EQ(whole.logs[1].addr[l], 8u + 4 * l); // shared offsets
        EXPECT_EQ(whole.logs[2].addr[l], 8u * l + 4); // generic addresses in the shared window, as offsets
    }
    // Lane l reads the word lane 2l - 1 stored (its tid), or a zero no lane wrote.
    for (const Recorded* r : {&whole, &part}) {
        const unsigned threads = unsigned(r->out.size());
        for (unsigned l = 0; l < threads; ++l) {
            const std::uint64_t word = l >= 1 && 2 * l - 1 < threads ? 2 * l - 1 : 0;
            EXPECT_EQ(r->out[l], 1000 * (l + 1) + word) << "lane " << l << " of " << threads;
        }
    }
}
