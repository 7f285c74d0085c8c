#pragma once
// The simulator's correctness checks, LaunchConfig::check: memcheck, racecheck,
// initcheck and synccheck under compute-sanitizer's names (docs/checks.md).
//
// While a check runs, each worker attaches a BlockChecks to its BlockRunner
// (LaunchObservers). It is an observer of the slow paths (a fault, a barrier,
// __syncwarp) and, under initcheck only, of the memory accesses; it folds what it finds
// by FindingKey and, when the worker is done, merges that into the launch's
// CheckFindings. Without a check none of this exists.
#include "launch/LaunchTypes.hpp"
#include "sim/LaunchState.hpp"
#include "sim/Observer.hpp"
#include "sim/RaceDetector.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace kw::sim {

struct Function;
struct LaunchState;

enum class FindingKind : std::uint8_t {
    OutOfBoundsRead,
    OutOfBoundsWrite,
    MisalignedRead,
    MisalignedWrite, // memcheck
    RaceReadAfterWrite,
    RaceWriteAfterRead,
    RaceWriteAfterWrite, // racecheck
    UninitialisedShared,
    UninitialisedLocal,
    UninitialisedGlobal, // initcheck (global: a buffer of a document of steps)
    DivergentBarrier,
    BarrierExited,
    BarrierCount,
    WarpSyncMask, // synccheck
};
const char* kindText(FindingKind kind); // CheckFinding::kind: "out of bounds read", ...
// For the findings' messages: "(1,0,0)", an instruction's PTX text, "kernel.cu:12".
std::string dimText(const Dim3& d);
std::string instrText(const LaunchState& L, const Instr& in);
std::string lineText(const LaunchState& L, const Instr& in);
// Worded as the simulator's faults: "<what> in block (..) thread (..), instruction `..` at file:line".
std::string located(const LaunchState& L, const Dim3& block, const Dim3& thread, const Instr& in,
                    const std::string& what);

// What makes two findings the same one: equal keys fold into one finding with a count.
// Memcheck keeps every thread's access apart (block, thread, address), as
// compute-sanitizer lists them; the other tools fold by source line(s) over all threads
// and blocks. The key order is the report's order.
struct FindingKey {
    std::uint16_t file = 0;
    std::uint32_t line = 0;
    FindingKind kind = FindingKind::OutOfBoundsRead;
    std::uint16_t otherFile = 0;
    std::uint32_t otherLine = 0; // racecheck: the earlier access; synccheck: the other barrier
    std::uint64_t block = 0, thread = 0, address = 0;
    auto operator<=>(const FindingKey&) const = default;
};

// One finding so far: the first occurrence in the lowest block names it.
struct FoldedFinding {
    CheckFinding finding;
    std::uint64_t block = 0; // linear index of the block it was seen in
    std::uint64_t count = 0;
};

using FindingMap = std::map<FindingKey, FoldedFinding>;

// Findings kept apart at most; more distinct ones are counted, not kept.
inline constexpr std::size_t kMaxDistinctFindings = 10000;
// Findings a launch reports; the others are summed up in a warning.
inline constexpr std::size_t kMaxReportedFindings = 100;

// The launch's findings, merged from every worker: the same whatever order the
// workers finish in.
class CheckFindings {
public:
    explicit CheckFindings(CheckTool tool)
        : tool_(tool)
    {
    }
    CheckTool tool() const { return tool_; }
    void merge(FindingMap& found, std::uint64_t dropped);
    // The findings in key order, at most kMaxReportedFindings; a warning names the rest.
    void report(LaunchReport& report);

private:
    CheckTool tool_;
    std::mutex mu_;
    FindingMap found_;
    std::uint64_t dropped_ = 0;
};

// One worker's checks.
class BlockChecks : public Observer {
public:
    BlockChecks(LaunchState& launch, std::uint32_t warps, std::uint32_t localBytes);
    ~BlockChecks() override; // merges what it found into the launch's findings
    BlockChecks(const BlockChecks&) = delete;
    BlockChecks& operator=(const BlockChecks&) = delete;

    CheckTool tool() const { return tool_; }
    std::uint8_t wants() const override { return tool_ == CheckTool::Initcheck ? Accesses : 0; }
    // A new block: initcheck forgets what the last one wrote.
    void blockBegin(const BlockState& blk, std::uint64_t linear) override;
    // memcheck: an access that faults (Warp::misaligned, Warp::outOfBounds).
    void fault(const Warp& w, const FaultEvent& f) override;
    // initcheck: every shared and local access that passed the bounds checks, and the
    // global ones into a buffer whose written bytes are tracked (MemRegion::written).
    void memory(const Warp& w, const Instr& in, const AccessLog& lanes) override;
    // synccheck (BarrierChecks.cpp): a barrier releasing, with every thread waiting or
    // exited; the block goes on (BlockRunner is lenient under synccheck), divergence and
    // a thread count that does not name the block become findings.
    void barrierRelease(const std::vector<Warp>& warps, const Instr& bar) override;
    // synccheck: bar.warp.sync executed by the lanes in `m`.
    void warpSync(const Warp& w, const Instr& in, std::uint32_t m) override;
    // racecheck: a hazard the race detector found (threads are linear in the block).
    void race(Hazard hazard, std::uint32_t offset, std::uint32_t firstThread, const Instr& first,
              std::uint32_t secondThread, const Instr& second);

private:
    LaunchState& L_;
    CheckTool tool_;
    std::uint32_t localBytes_ = 0;
    std::uint64_t block_ = 0;
    Dim3 ctaid_;
    std::vector<std::uint8_t> sharedInit_, localInit_; // initcheck: 1 for each byte written in this block
    FindingMap found_;
    std::uint64_t dropped_ = 0;

    void shared(const Warp& w, std::uint32_t addr, std::uint32_t size, bool write, int lane, const Instr& in);
    void local(const Warp& w, std::uint32_t addr, std::uint32_t size, bool write, int lane, const Instr& in);
    void uninitialised(const Warp& w, FindingKind kind, std::uint32_t addr, std::uint32_t size, int lane,
                       const Instr& in);
    void global(const Warp& w, std::uint64_t addr, std::uint32_t size, bool write, int lane, const Instr& in);
    void divergence(const std::vector<Warp>& warps, const Function& fn);
    void barrierCount(const std::vector<Warp>& warps, const Function& fn);
    // Folds one occurrence into found_; make() builds the finding the first time the key is seen.
    template <class Make> void add(const FindingKey& key, Make&& make)
    {
        const auto it = found_.find(key);
        if (it != found_.end()) {
            ++it->second.count;
            return;
        }
        if (found_.size() >= kMaxDistinctFindings) {
            ++dropped_;
            return;
        }
        const auto made = found_.emplace(key, FoldedFinding{make(), block_, 1}).first;
        if (L_.onFinding) [[unlikely]]
            L_.onFinding(made->second.finding);
    }
    CheckFinding finding(FindingKind kind, const Instr& in, const std::string& message) const;
};

// bar.sync id, b: true when every waiting thread's b names the whole block (its threads
// rounded up to whole warps), so the barrier runs as a plain one; otherwise a fault
// (false). In BarrierChecks.cpp.
bool barrierCountsMatch(std::vector<Warp>& warps, const Function& fn);

} // namespace kw::sim
