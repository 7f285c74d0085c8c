#include "sim/ProfileCollector.hpp"

#include "sim/Warp.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace kw::sim {

namespace {

// Bits set (no popcnt instruction is assumed: __builtin_popcount would call libgcc).
inline std::uint32_t lanesIn(std::uint32_t m)
{
    if (m == 0xffffffffu)
        return 32;
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

// Insertion sort: the lanes of a warp usually come in address order, which it takes in
// one pass; a scattered warp costs at most 32 * 31 / 2 steps.
template <class T, class Less> void sortSmall(T* v, int n, Less less)
{
    for (int i = 1; i < n; ++i) {
        const T key = v[i];
        int j = i - 1;
        while (j >= 0 && less(key, v[j])) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = key;
    }
}

// The step between the addresses of neighbouring active lanes when every step agrees
// (lanes further apart count their distance once per lane between), else 0.
std::uint32_t regularStride(const std::uint64_t* addr, std::uint32_t lanes)
{
    int prev = -1;
    bool have = false;
    std::int64_t step = 0;
    for (std::uint32_t m = lanes; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        if (prev >= 0) {
            const auto diff = static_cast<std::int64_t>(addr[l] - addr[prev]);
            const std::int64_t gap = l - prev;
            if (gap > 1 && diff % gap != 0)
                return 0;
            const std::int64_t s = gap > 1 ? diff / gap : diff;
            if (have && s != step)
                return 0;
            step = s;
            have = true;
        }
        prev = l;
    }
    if (!have)
        return 0;
    const std::uint64_t mag = static_cast<std::uint64_t>(step < 0 ? -step : step);
    return mag > 0xffffffffu ? 0 : static_cast<std::uint32_t>(mag);
}

// The bytes of each run of contiguous addresses (lane by lane) when the lanes split into
// two or more runs of one length, else 0.
std::uint32_t equalRuns(const std::uint64_t* addr, const std::uint32_t* size, std::uint32_t lanes)
{
    std::uint64_t run = 0, first = 0, end = 0;
    int runs = 0;
    for (std::uint32_t m = lanes; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        if (runs > 0 && addr[l] == end) {
            run += size[l];
        } else {
            if (runs > 1 && run != first)
                return 0;
            if (runs == 1)
                first = run;
            ++runs;
            run = size[l];
        }
        end = addr[l] + size[l];
    }
    if (runs < 2 || run != first || first > 0xffffffffu)
        return 0;
    return std::uint32_t(first);
}

// regularStride of the lanes; a whole warp whose halves are each one address or
// consecutive elements (AccessLog::regularHalves) follows one stride exactly when lane 16
// continues lane 15's step.
std::uint32_t strideOf(const AccessLog& log, std::uint32_t lanes)
{
    if (!(log.regularHalves && lanes == 0xffffffffu))
        return regularStride(log.addr, lanes);
    const std::uint64_t step = log.addr[1] - log.addr[0];
    return log.addr[16] - log.addr[0] == 16 * step && step <= 0xffffffffu ? std::uint32_t(step) : 0;
}

std::uint32_t distinctAddresses(const std::uint64_t* addr, std::uint32_t lanes)
{
    std::uint64_t v[32];
    int n = 0;
    for (std::uint32_t m = lanes; m; m &= m - 1)
        v[n++] = addr[__builtin_ctz(m)];
    sortSmall(v, n, [](std::uint64_t a, std::uint64_t b) { return a < b; });
    std::uint32_t distinct = 0;
    for (int i = 0; i < n; ++i)
        if (i == 0 || v[i] != v[i - 1])
            ++distinct;
    return distinct;
}

// An instruction's stride and run bytes are looked for in its first requests of each block
// only: the cost stays bounded, and what a block finds depends on that block alone.
constexpr std::uint32_t kPatternTries = 32;

constexpr std::uint32_t ProfileExtras::*kGlobalStrideFields[]
    = {&ProfileExtras::global_stride_bytes, &ProfileExtras::global_ld_stride_bytes,
       &ProfileExtras::global_st_stride_bytes};
constexpr std::uint32_t ProfileExtras::*kSharedStrideFields[]
    = {&ProfileExtras::shared_ld_stride_bytes, &ProfileExtras::shared_st_stride_bytes};
constexpr std::uint32_t ProfileExtras::*kGlobalRunFields[]
    = {&ProfileExtras::global_ld_run_bytes, &ProfileExtras::global_st_run_bytes};

} // namespace

namespace {

struct Span {
    std::uint64_t begin, end;
};

// Sectors and distinct bytes of spans sorted by their start.
template <class Next> SectorCount sweep(int n, Next next)
{
    SectorCount r;
    std::uint64_t covered = 0, bytes = 0, runBegin = 0, runEnd = 0; // covered: one past the last sector counted
    for (int i = 0; i < n; ++i) {
        const Span s = next(i);
        const std::uint64_t first = s.begin >> 5, last = (s.end - 1) >> 5;
        const std::uint64_t from = i ? std::max(first, covered) : first;
        if (last >= from) {
            r.sectors += std::uint32_t(last + 1 - from);
            covered = last + 1;
        }
        // Distinct bytes: the union of the sorted spans.
        if (i == 0 || s.begin > runEnd) {
            bytes += runEnd - runBegin;
            runBegin = s.begin;
            runEnd = s.end;
        } else {
            runEnd = std::max(runEnd, s.end);
        }
    }
    bytes += runEnd - runBegin;
    r.ideal = std::uint32_t((bytes + 31) / 32);
    return r;
}

} // namespace

SectorCount countSectors(const std::uint64_t* addr, const std::uint32_t* size, std::uint32_t lanes)
{
    if (!lanes)
        return {};
    // The usual request: one access size (a power of two up to 32, so an aligned access
    // never straddles a sector) and addresses that never decrease from lane to lane.
    // Then the sectors are the changes of addr / 32, the distinct bytes what each lane
    // adds past the previous lane's end.
    {
        const std::uint32_t s = size[__builtin_ctz(lanes)];
        if (s && s <= 32 && (s & (s - 1)) == 0) {
            std::uint64_t prevSector = ~std::uint64_t(0), prevBegin = 0, prevEnd = 0, bytes = 0;
            std::uint32_t sectors = 0;
            bool regular = true;
            for (std::uint32_t m = lanes; m; m &= m - 1) {
                const int l = __builtin_ctz(m);
                const std::uint64_t b = addr[l];
                regular &= (size[l] == s) & (b >= prevBegin);
                const std::uint64_t sector = b >> 5;
                sectors += sector != prevSector;
                prevSector = sector;
                bytes += std::min<std::uint64_t>(s, b + s - std::min(prevEnd, b + s));
                prevBegin = b;
                prevEnd = b + s;
            }
            if (regular)
                return {sectors, std::uint32_t((bytes + 31) / 32)};
        }
    }
    int order[32];
    int n = 0;
    bool sorted = true;
    for (std::uint32_t m = lanes; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        if (size[l] == 0)
            continue;
        if (n && addr[l] < addr[order[n - 1]])
            sorted = false;
        order[n++] = l;
    }
    if (n == 0)
        return {};
    // Lanes usually come in address order: then they are swept as they are.
    if (sorted)
        return sweep(n, [&](int i) { return Span{addr[order[i]], addr[order[i]] + size[order[i]]}; });
    Span s[32];
    for (int i = 0; i < n; ++i)
        s[i] = {addr[order[i]], addr[order[i]] + size[order[i]]};
    sortSmall(s, n, [](const Span& a, const Span& b) { return a.begin < b.begin; });
    return sweep(n, [&](int i) { return s[i]; });
}

namespace {

// countWavefronts of a whole warp of 4-byte lanes whose halves are each one word or 16
// consecutive words (AccessLog::regularHalves), from lanes 0, 1 and 16. Inline in the
// profiler's count of every such request.
[[gnu::always_inline]] inline WavefrontCount halvesWavefronts(const std::uint64_t* offset)
{
    // One phase, two runs of words: [a, a + n) and [b, b + n), n = 1 or 16. Within 32
    // consecutive words, one wavefront; further apart the runs share no word, and a bank
    // both runs use delivers two (runs of 16 use disjoint banks only 16 banks apart).
    const auto a = std::uint32_t(offset[0] >> 2), b = std::uint32_t(offset[16] >> 2);
    const std::uint32_t n = offset[1] == offset[0] ? 1 : 16;
    std::uint32_t ways = 1;
    if (std::max(a, b) + n - 1 - std::min(a, b) >= 32) {
        const std::uint32_t apart = (b - a) & 31;
        ways = (n == 1 ? apart == 0 : apart != 16) ? 2 : 1;
    }
    return {ways, 1, ways};
}

// The most distinct words one bank is asked for by the lanes `pm`, each reading
// wordsPerLane words from offset[l]. Out of line: its 4 KiB of stack would be set up on
// every count, though most phases lie within 32 words and never need it.
[[gnu::noinline]] std::uint32_t busiestBank(const std::uint64_t* offset, std::uint32_t pm, std::uint32_t wordsPerLane)
{
    std::uint32_t seen[32][32];
    std::uint8_t count[32] = {};
    std::uint32_t busiest = 0;
    for (std::uint32_t m = pm; m; m &= m - 1) {
        const auto base = std::uint32_t(offset[__builtin_ctz(m)] >> 2);
        for (std::uint32_t k = 0; k < wordsPerLane; ++k) {
            const std::uint32_t w = base + k, bank = w & 31;
            bool dup = false;
            for (std::uint32_t j = 0; j < count[bank] && !dup; ++j)
                dup = seen[bank][j] == w;
            if (dup)
                continue; // one word serves every lane that reads it
            seen[bank][count[bank]++] = w;
            busiest = std::max<std::uint32_t>(busiest, count[bank]);
        }
    }
    return busiest;
}

} // namespace

WavefrontCount countWavefronts(const std::uint64_t* offset, std::uint32_t size, std::uint32_t lanes, bool regularHalves)
{
    if (regularHalves && size == 4 && lanes == 0xffffffffu)
        return halvesWavefronts(offset);
    WavefrontCount r;
    const std::uint32_t wordsPerLane = size > 4 ? std::min<std::uint32_t>(size / 4, 32) : 1;
    const std::uint32_t lanesPerPhase = 32 / wordsPerLane;
    const std::uint32_t phaseMask = lanesPerPhase >= 32 ? 0xffffffffu : (1u << lanesPerPhase) - 1;
    for (std::uint32_t first = 0; first < 32; first += lanesPerPhase) {
        const std::uint32_t pm = lanes & (phaseMask << first);
        if (!pm)
            continue;
        r.ideal += 1;
        // Within 32 consecutive words every bank holds at most one of them: one wavefront.
        // Shared offsets are below 4 GiB. A whole phase takes a loop the compiler vectorises.
        std::uint32_t lo = ~0u, hi = 0;
        if (pm == phaseMask << first) {
            for (std::uint32_t l = first; l < first + lanesPerPhase; ++l) {
                const auto w = std::uint32_t(offset[l] >> 2);
                lo = std::min(lo, w);
                hi = std::max(hi, w);
            }
        } else {
            for (std::uint32_t m = pm; m; m &= m - 1) {
                const auto w = std::uint32_t(offset[__builtin_ctz(m)] >> 2);
                lo = std::min(lo, w);
                hi = std::max(hi, w);
            }
        }
        const std::uint32_t busiest = hi + wordsPerLane - 1 - lo >= 32 ? busiestBank(offset, pm, wordsPerLane) : 1;
        r.wavefronts += busiest;
        r.worst = std::max(r.worst, busiest);
    }
    return r;
}

ProfileCollector::ProfileCollector(const Function& fn, const std::optional<CaptureTarget>& capture)
    : pcs(fn.code.size())
    , code_(fn.code.data())
    , capture_(capture)
    , tries_(fn.code.size())
    , lines_(!std::getenv("KW_SIM_PROFILE_PER_INSTRUCTION"))
{
}

void ProfileCollector::blockBegin(const BlockState& blk, std::uint64_t linear)
{
    block_ = linear;
    const Dim3& ctaid = blk.ctaid;
    captureBlock_ = capture_ && samples.size() < capture_->maxSamples && ctaid.x == capture_->block.x
        && ctaid.y == capture_->block.y && ctaid.z == capture_->block.z;
}

void ProfileCollector::issue(const Warp& w, const Instr& in, std::uint32_t m)
{
    PcCounters& p = pcs[std::size_t(&in - code_)];
    ++p.counters.inst_executed;
    p.counters.thread_inst_executed += lanesIn(w.mask);
    if (in.ctrl == Ctrl::Bra) {
        ++p.extras.branches;
        if (m && m != w.mask)
            ++p.counters.divergent_branches;
    }
}

// A line's instructions are plain (no branch, no guard): each counts as issue() would.
void ProfileCollector::issueLine(const Warp& /*w*/, std::uint32_t pc, std::uint32_t n, std::uint32_t mask)
{
    const std::uint32_t lanes = lanesIn(mask);
    for (PcCounters *p = &pcs[pc], *end = p + n; p != end; ++p) {
        ++p->counters.inst_executed;
        p->counters.thread_inst_executed += lanes;
    }
}

void ProfileCollector::memory(const Warp& w, const Instr& in, const AccessLog& log)
{
    // printf and assert read their strings through access() as well: not a memory instruction.
    if (in.ctrl != Ctrl::None)
        return;
    const auto pc = std::uint32_t(&in - code_);
    PcCounters& p = pcs[pc];
    // Constant memory is not counted.
    const std::uint32_t global = log.inSpace[int(Space::Global)], shared = log.inSpace[int(Space::Shared)],
                        local = log.inSpace[int(Space::Local)];
    if (!(global | shared | local))
        return;
    ProfileCounters& c = p.counters;
    ProfileExtras& x = p.extras;
    if (in.atomic) {
        // atom/red count as atomics in whichever space they resolve to, never as loads or stores.
        const std::uint32_t all = global | shared | local;
        c.atomic_requests += std::uint64_t(global != 0) + (shared != 0) + (local != 0);
        x.atomic_lanes += lanesIn(all);
        for (std::uint32_t part : {global, shared, local})
            if (part)
                x.atomic_addresses += distinctAddresses(log.addr, part);
    } else {
        const bool st = log.write;
        PatternTries& tries = tries_[pc];
        if (tries.block != block_)
            tries = {block_, 0, 0};
        if (global) {
            const SectorCount s = countSectors(log.addr, log.size, global);
            const std::uint32_t bytes = log.size[__builtin_ctz(global)]; // one size per instruction
            globalPatterns(p, tries, log, global, st);
            if (st) {
                ++c.global_st_requests;
                c.global_st_sectors += s.sectors;
                x.global_st_ideal_sectors += s.ideal;
                x.global_st_bytes = std::max(x.global_st_bytes, bytes);
                x.global_st_lanes += lanesIn(global);
            } else {
                ++c.global_ld_requests;
                c.global_ld_sectors += s.sectors;
                x.global_ld_ideal_sectors += s.ideal;
                x.global_ld_bytes = std::max(x.global_ld_bytes, bytes);
                x.global_ld_lanes += lanesIn(global);
            }
        }
        if (shared) {
            const std::uint32_t bytes = log.size[__builtin_ctz(shared)];
            const WavefrontCount wf = log.regularHalves && bytes == 4 && shared == 0xffffffffu
                ? halvesWavefronts(log.addr)
                : countWavefronts(log.addr, bytes, shared);
            sharedPatterns(p, tries, log, shared, st);
            if (st) {
                ++c.shared_st_requests;
                c.shared_st_wavefronts += wf.wavefronts;
                x.shared_st_ideal_wavefronts += wf.ideal;
            } else {
                ++c.shared_ld_requests;
                c.shared_ld_wavefronts += wf.wavefronts;
                x.shared_ld_ideal_wavefronts += wf.ideal;
            }
            x.shared_ideal_wavefronts += wf.ideal;
            x.worst_bank_conflict = std::max(x.worst_bank_conflict, wf.worst);
            x.shared_bytes = std::max(x.shared_bytes, bytes);
        }
        if (local)
            ++(st ? c.local_st_requests : c.local_ld_requests);
    }
    if (captureBlock_ && w.warpId == capture_->warp && in.line == capture_->line && in.file == capture_->file)
        capture(w, in, pc, log);
}

// The stride while no request of this block or an earlier one has given it; the runs while
// the stride has not been found either (where it has, the lanes follow it).
void ProfileCollector::globalPatterns(PcCounters& p, PatternTries& tries, const AccessLog& log, std::uint32_t lanes,
                                      bool store)
{
    FirstPatterns& f = p.firsts;
    if (f.globalStride <= block_ || tries.global >= kPatternTries)
        return;
    ++tries.global;
    ProfileExtras& x = p.extras;
    if (const std::uint32_t stride = strideOf(log, lanes)) {
        x.global_stride_bytes = stride;
        (store ? x.global_st_stride_bytes : x.global_ld_stride_bytes) = stride;
        f.globalStride = block_;
    } else if (f.globalRun > block_) {
        if (const std::uint32_t run = equalRuns(log.addr, log.size, lanes)) {
            (store ? x.global_st_run_bytes : x.global_ld_run_bytes) = run;
            f.globalRun = block_;
        }
    }
}

void ProfileCollector::sharedPatterns(PcCounters& p, PatternTries& tries, const AccessLog& log, std::uint32_t lanes,
                                      bool store)
{
    FirstPatterns& f = p.firsts;
    if (f.sharedStride <= block_ || tries.shared >= kPatternTries)
        return;
    ++tries.shared;
    if (const std::uint32_t stride = strideOf(log, lanes)) {
        (store ? p.extras.shared_st_stride_bytes : p.extras.shared_ld_stride_bytes) = stride;
        f.sharedStride = block_;
    }
}

void PcCounters::merge(const PcCounters& o)
{
    counters += o.counters;
    const ProfileExtras mine = extras;
    extras += o.extras; // sums and maxima; the first patterns follow their blocks below
    const auto byBlock = [&](std::uint64_t FirstPatterns::*at, const auto& fields) {
        const ProfileExtras& from = o.firsts.*at < firsts.*at ? o.extras : mine;
        for (std::uint32_t ProfileExtras::*field : fields)
            extras.*field = from.*field;
        firsts.*at = std::min(firsts.*at, o.firsts.*at);
    };
    byBlock(&FirstPatterns::globalStride, kGlobalStrideFields);
    byBlock(&FirstPatterns::sharedStride, kSharedStrideFields);
    byBlock(&FirstPatterns::globalRun, kGlobalRunFields);
    // One worker looks for runs only until the stride is found: a later block's run is one
    // that worker would not have looked for.
    if (firsts.globalRun != FirstPatterns::kNone && firsts.globalRun > firsts.globalStride) {
        for (std::uint32_t ProfileExtras::*field : kGlobalRunFields)
            extras.*field = 0;
        firsts.globalRun = FirstPatterns::kNone;
    }
}

void ProfileCollector::capture(const Warp& w, const Instr& in, std::uint32_t pc, const AccessLog& log)
{
    AccessSample s;
    const std::uint32_t firstLane = log.lanes & -log.lanes;
    s.space = (log.inSpace[int(Space::Shared)] & firstLane) ? AccessSample::Space::Shared
        : (log.inSpace[int(Space::Local)] & firstLane)      ? AccessSample::Space::Local
                                                            : AccessSample::Space::Global;
    s.atomic = in.atomic;
    s.store = log.write && !in.atomic;
    s.instruction = pc < w.fn->text.size() ? w.fn->text[pc] : std::string();
    for (int l = 0; l < 32; ++l) {
        if (!((log.lanes >> l) & 1))
            continue;
        s.lanes[l].active = true;
        s.lanes[l].address = log.addr[l];
        s.lanes[l].bytes = log.size[l];
    }
    samples.push_back(std::move(s));
    if (samples.size() >= capture_->maxSamples)
        captureBlock_ = false;
}

std::uint16_t mainFile(const Function& fn)
{
    std::map<std::uint16_t, std::size_t> uses;
    for (const Instr& in : fn.code)
        if (in.line)
            ++uses[in.file];
    std::uint16_t best = 0;
    std::size_t most = 0;
    for (const auto& [file, n] : uses)
        if (n > most) {
            best = file;
            most = n;
        }
    return best;
}

KernelProfile mergeProfile(const Module& mod, const Function& fn,
                           const std::vector<const ProfileCollector*>& collectors, std::uint32_t maxSamples)
{
    std::vector<PcCounters> sum(fn.code.size());
    for (const ProfileCollector* c : collectors) {
        if (!c)
            continue;
        for (std::size_t pc = 0; pc < sum.size() && pc < c->pcs.size(); ++pc)
            sum[pc].merge(c->pcs[pc]);
    }
    KernelProfile profile;
    std::map<std::pair<std::uint16_t, std::uint32_t>, LineProfile> lines;
    for (std::size_t pc = 0; pc < sum.size(); ++pc) {
        const PcCounters& p = sum[pc];
        profile.totals += p.counters;
        profile.totalExtras += p.extras;
        const Instr& in = fn.code[pc];
        if (in.line == 0 || p.counters.inst_executed == 0)
            continue;
        LineProfile& line = lines[{in.file, in.line}];
        line.counters += p.counters;
        line.extras += p.extras;
    }
    for (auto& [key, line] : lines) {
        line.file = mod.fileName(key.first);
        line.line = int(key.second);
        profile.lines.push_back(std::move(line));
    }
    for (const ProfileCollector* c : collectors) {
        if (!c)
            continue;
        for (const AccessSample& s : c->samples)
            if (profile.samples.size() < maxSamples)
                profile.samples.push_back(s);
    }
    return profile;
}

} // namespace kw::sim
