// memcheck, racecheck and initcheck findings, folding, merging and the report.
// synccheck's barrier and __syncwarp checks are in BarrierChecks.cpp.
#include "sim/SimChecks.hpp"

#include "sim/LaunchState.hpp"
#include "sim/Warp.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace kw::sim {

std::string dimText(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

std::string instrText(const LaunchState& L, const Instr& in)
{
    const auto index = static_cast<std::size_t>(&in - L.fn->code.data());
    return index < L.fn->text.size() ? L.fn->text[index] : std::string();
}

std::string lineText(const LaunchState& L, const Instr& in)
{
    return in.line ? fmt::format("{}:{}", L.mod->fileName(in.file), in.line) : std::string("an unknown line");
}

std::string located(const LaunchState& L, const Dim3& block, const Dim3& thread, const Instr& in,
                    const std::string& what)
{
    return fmt::format("{} in block {} thread {}, instruction `{}`{}", what, dimText(block), dimText(thread),
                       instrText(L, in), in.line ? " at " + lineText(L, in) : std::string());
}

const char* kindText(FindingKind kind)
{
    switch (kind) {
    case FindingKind::OutOfBoundsRead: return "out of bounds read";
    case FindingKind::OutOfBoundsWrite: return "out of bounds write";
    case FindingKind::MisalignedRead: return "misaligned read";
    case FindingKind::MisalignedWrite: return "misaligned write";
    case FindingKind::RaceReadAfterWrite: return "shared-memory race: read after write";
    case FindingKind::RaceWriteAfterRead: return "shared-memory race: write after read";
    case FindingKind::RaceWriteAfterWrite: return "shared-memory race: write after write";
    case FindingKind::UninitialisedShared:
    case FindingKind::UninitialisedLocal:
    case FindingKind::UninitialisedGlobal: return "uninitialized read";
    case FindingKind::DivergentBarrier:
    case FindingKind::BarrierExited: return "divergent barrier";
    case FindingKind::BarrierCount: return "invalid barrier thread count";
    case FindingKind::WarpSyncMask: return "invalid __syncwarp mask";
    }
    return "finding";
}

// ---- the launch's findings

void CheckFindings::merge(FindingMap& found, std::uint64_t dropped)
{
    std::lock_guard lock(mu_);
    dropped_ += dropped;
    for (auto& [key, f] : found) {
        const auto it = found_.find(key);
        if (it == found_.end()) {
            if (found_.size() >= kMaxDistinctFindings)
                dropped_ += f.count;
            else
                found_.emplace(key, std::move(f));
            continue;
        }
        FoldedFinding& kept = it->second;
        kept.count += f.count;
        // The lowest block names the finding, whichever worker ran it.
        if (f.block < kept.block) {
            kept.finding = std::move(f.finding);
            kept.block = f.block;
        }
    }
    found.clear();
}

void CheckFindings::report(LaunchReport& report)
{
    std::lock_guard lock(mu_);
    std::size_t listed = 0;
    std::uint64_t more = 0;
    for (auto& [key, f] : found_) {
        if (listed == kMaxReportedFindings) {
            more += f.count;
            continue;
        }
        f.finding.count = std::uint32_t(std::min<std::uint64_t>(f.count, std::numeric_limits<std::uint32_t>::max()));
        report.findings.push_back(std::move(f.finding));
        ++listed;
    }
    if (more || dropped_)
        report.warnings.push_back(fmt::format("sim {}: {} findings listed; {} more occurrences of further findings "
                                              "were left out",
                                              toString(tool_), listed, more + dropped_));
    found_.clear();
    dropped_ = 0;
}

// ---- one worker's checks

BlockChecks::BlockChecks(LaunchState& launch, std::uint32_t warps, std::uint32_t localBytes)
    : L_(launch)
    , tool_(launch.check)
    , localBytes_(localBytes)
{
    if (tool_ == CheckTool::Initcheck) {
        sharedInit_.assign(launch.sharedSize, 0);
        localInit_.assign(std::size_t(warps) * 32 * localBytes, 0);
    }
}

BlockChecks::~BlockChecks()
{
    if (L_.findings)
        L_.findings->merge(found_, dropped_);
}

void BlockChecks::blockBegin(const BlockState& blk, std::uint64_t linear)
{
    block_ = linear;
    ctaid_ = blk.ctaid;
    if (tool_ == CheckTool::Initcheck) {
        std::fill(sharedInit_.begin(), sharedInit_.end(), std::uint8_t(0));
        // The reserved window starts each block zeroed, as cooperative groups expects of it.
        if (L_.mod && L_.mod->reservedShared)
            std::fill(sharedInit_.begin() + L_.reservedShared, sharedInit_.end(), std::uint8_t(1));
        std::fill(localInit_.begin(), localInit_.end(), std::uint8_t(0));
    }
}

namespace {

std::uint64_t linearThread(const Dim3& t, const Dim3& block)
{
    return t.x + std::uint64_t(block.x) * (t.y + std::uint64_t(block.y) * t.z);
}

Dim3 threadFromLinear(std::uint32_t t, const Dim3& b) { return {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)}; }

} // namespace

CheckFinding BlockChecks::finding(FindingKind kind, const Instr& in, const std::string& message) const
{
    CheckFinding f;
    f.tool = tool_;
    f.kind = kindText(kind);
    f.message = message;
    f.file = L_.mod->fileName(in.file);
    f.line = int(in.line);
    f.block = ctaid_;
    return f;
}

void BlockChecks::fault(const Warp& w, const FaultEvent& e)
{
    if (tool_ != CheckTool::Memcheck || !e.access)
        return;
    const bool misaligned = e.kind == FaultKind::MisalignedAddress;
    const FindingKind kind = misaligned ? (e.write ? FindingKind::MisalignedWrite : FindingKind::MisalignedRead)
                                        : (e.write ? FindingKind::OutOfBoundsWrite : FindingKind::OutOfBoundsRead);
    const Dim3 t = w.threadOf(e.lane);
    const FindingKey key{e.in.file, e.in.line, kind, 0, 0, block_, linearThread(t, L_.block), e.address};
    add(key, [&] {
        CheckFinding f = finding(kind, e.in, located(L_, ctaid_, t, e.in, e.what));
        f.thread = t;
        f.address = e.address;
        return f;
    });
}

void BlockChecks::memory(const Warp& w, const Instr& in, const AccessLog& lanes)
{
    const std::uint32_t shared = lanes.inSpace[int(Space::Shared)], local = lanes.inSpace[int(Space::Local)];
    for (std::uint32_t m = L_.mem.tracked() ? lanes.inSpace[int(Space::Global)] : 0; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        global(w, lanes.addr[l], lanes.size[l], lanes.write, l, in);
    }
    for (std::uint32_t m = shared | local; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const auto addr = std::uint32_t(lanes.addr[l]);
        if ((shared >> l) & 1)
            this->shared(w, addr, lanes.size[l], lanes.write, l, in);
        else
            this->local(w, addr, lanes.size[l], lanes.write, l, in);
    }
}

void BlockChecks::uninitialised(const Warp& w, FindingKind kind, std::uint32_t addr, std::uint32_t size, int lane,
                                const Instr& in)
{
    const FindingKey key{in.file, in.line, kind};
    add(key, [&] {
        const bool shared = kind == FindingKind::UninitialisedShared;
        const Dim3 t = w.threadOf(lane);
        const std::string what = shared
            ? fmt::format("uninitialised shared memory read of {} bytes at shared offset 0x{:x} (no thread of "
                          "the block wrote it before)",
                          size, addr)
            : fmt::format("uninitialised local memory read of {} bytes at offset 0x{:x} of the thread's "
                          "local frame (the thread did not write it before)",
                          size, addr);
        CheckFinding f = finding(kind, in, located(L_, ctaid_, t, in, what));
        f.thread = t;
        f.address = addr;
        return f;
    });
}

namespace {
// Whether an access reads what was there before: loads, and atomics other than exch.
bool reads(bool write, const Instr& in) { return !write || (in.atomic && in.atom != AtomOp::Exch); }

bool allSet(const std::uint8_t* p, std::uint32_t n) { return std::find(p, p + n, std::uint8_t(0)) == p + n; }
} // namespace

// Blocks on other workers mark the same shadow: its bytes are read and written atomically.
// A block reading what another block of the same launch wrote depends on their order,
// as it does on a GPU.
void BlockChecks::global(const Warp& w, std::uint64_t addr, std::uint32_t size, bool write, int lane, const Instr& in)
{
    const MemRegion* r = L_.mem.find(addr, size);
    if (!r || !r->written)
        return;
    std::uint8_t* p = r->written + (addr - r->base);
    if (reads(write, in)) {
        bool all = true;
        for (std::uint32_t b = 0; b < size && all; ++b)
            all = std::atomic_ref<std::uint8_t>(p[b]).load(std::memory_order_relaxed) != 0;
        if (!all) {
            const std::uint64_t offset = addr - r->base;
            add(FindingKey{in.file, in.line, FindingKind::UninitialisedGlobal}, [&] {
                const Dim3 t = w.threadOf(lane);
                const std::string what
                    = fmt::format("uninitialised global memory read of {} bytes of {}, element {} (no earlier step, "
                                  "copy or fill wrote it, and an out buffer's upload is not data)",
                                  size, r->name, offset / r->elementBytes);
                CheckFinding f = finding(FindingKind::UninitialisedGlobal, in, located(L_, ctaid_, t, in, what));
                f.thread = t;
                f.address = addr;
                return f;
            });
        }
    }
    if (write)
        for (std::uint32_t b = 0; b < size; ++b)
            std::atomic_ref<std::uint8_t>(p[b]).store(1, std::memory_order_relaxed);
}

void BlockChecks::shared(const Warp& w, std::uint32_t addr, std::uint32_t size, bool write, int lane, const Instr& in)
{
    std::uint8_t* p = sharedInit_.data() + addr;
    if (reads(write, in) && !allSet(p, size))
        uninitialised(w, FindingKind::UninitialisedShared, addr, size, lane, in);
    if (write)
        std::memset(p, 1, size);
}

void BlockChecks::local(const Warp& w, std::uint32_t addr, std::uint32_t size, bool write, int lane, const Instr& in)
{
    std::uint8_t* p = localInit_.data() + (std::size_t(w.warpId) * 32 + std::size_t(lane)) * localBytes_ + addr;
    if (reads(write, in) && !allSet(p, size))
        uninitialised(w, FindingKind::UninitialisedLocal, addr, size, lane, in);
    if (write)
        std::memset(p, 1, size);
}

void BlockChecks::race(Hazard hazard, std::uint32_t offset, std::uint32_t firstThread, const Instr& first,
                       std::uint32_t secondThread, const Instr& second)
{
    const FindingKind kind = hazard == Hazard::ReadAfterWrite ? FindingKind::RaceReadAfterWrite
        : hazard == Hazard::WriteAfterRead                    ? FindingKind::RaceWriteAfterRead
                                                              : FindingKind::RaceWriteAfterWrite;
    const FindingKey key{second.file, second.line, kind, first.file, first.line};
    add(key, [&] {
        static constexpr const char* names[] = {"RAW", "WAR", "WAW"};
        const bool firstWrites = hazard != Hazard::WriteAfterRead;
        const bool secondWrites = hazard != Hazard::ReadAfterWrite;
        const Dim3 a = threadFromLinear(firstThread, L_.block), b = threadFromLinear(secondThread, L_.block);
        CheckFinding f = finding(
            kind, second,
            fmt::format("{} hazard at shared offset 0x{:x} in block {}: thread {} {} at {} (`{}`), then thread {} "
                        "{} at {} (`{}`) with no barrier between them",
                        names[int(hazard)], offset, dimText(ctaid_), dimText(a), firstWrites ? "writes" : "reads",
                        lineText(L_, first), instrText(L_, first), dimText(b), secondWrites ? "writes" : "reads",
                        lineText(L_, second), instrText(L_, second)));
        f.otherFile = L_.mod->fileName(first.file);
        f.otherLine = int(first.line);
        f.thread = b;
        f.address = offset;
        return f;
    });
}

} // namespace kw::sim
