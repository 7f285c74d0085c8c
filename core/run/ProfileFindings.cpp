#include "run/ProfileFindings.hpp"

#include "run/ProfileFigures.hpp"
#include "util/Text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace kw {

namespace {

// What a warp needs at the least for a global request to count as wasteful: 20 % more
// sectors than its bytes fill (one misaligned 4-byte warp: 5 for 4).
constexpr double kSectorExcess = 1.2;
// Requests with at least this many lanes on average count as whole warps.
constexpr double kFullWarp = 31.5;
// Shared memory: half again as many wavefronts as the phases need.
constexpr double kWavefrontExcess = 1.5;
// Branches: a quarter of them splitting the warp, or one in twenty where the line runs
// with a quarter of the lanes idle (a loop whose lanes leave it at different times).
constexpr double kDivergentShare = 0.25;
constexpr double kDivergentShareIdle = 0.05;
constexpr double kIdleLanes = 24;
// Atomics: this many lanes per distinct address and request.
constexpr double kLanesPerAddress = 8;

std::string number(double v)
{
    const double r = std::round(v);
    if (std::fabs(v - r) < 0.05)
        return fmt::format("{}", static_cast<long long>(r));
    return fmt::format("{:.1f}", v);
}

std::string withoutComment(const std::string& line)
{
    const auto c = line.find("//");
    return c == std::string::npos ? line : line.substr(0, c);
}

// The text inside the parenthesis that opens at `open` (without the parentheses).
std::string parenthesised(const std::string& s, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(')
            ++depth;
        else if (s[i] == ')' && --depth == 0)
            return s.substr(open + 1, i - open - 1);
    }
    return s.substr(open + 1);
}

// Where keyword `kw` starts as a whole word followed by '(' (npos if nowhere).
std::size_t keywordParen(const std::string& s, const std::string& kw, std::size_t& open)
{
    for (std::size_t at = s.find(kw); at != std::string::npos; at = s.find(kw, at + 1)) {
        const bool startOk = at == 0 || !(std::isalnum(static_cast<unsigned char>(s[at - 1])) || s[at - 1] == '_');
        std::size_t p = at + kw.size();
        while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])))
            ++p;
        if (startOk && p < s.size() && s[p] == '(') {
            open = p;
            return at;
        }
    }
    return std::string::npos;
}

std::string globalText(const LineProfile& l, const ProfileFigures& f, bool store)
{
    const ProfileExtras& x = l.extras;
    const std::uint32_t stride = store ? x.global_st_stride_bytes : x.global_ld_stride_bytes;
    const std::uint32_t bytes = store ? x.global_st_bytes : x.global_ld_bytes;
    const double per = store ? f.stSectorsPerRequest : f.ldSectorsPerRequest;
    const double ideal = store ? f.stIdealSectorsPerRequest : f.ldIdealSectorsPerRequest;
    const char* verb = store ? "write" : "read";
    std::string head = fmt::format("{} sectors per request where {} would do", number(per), number(ideal));
    const std::uint64_t requests = store ? l.counters.global_st_requests : l.counters.global_ld_requests;
    const std::uint64_t laneSum = store ? x.global_st_lanes : x.global_ld_lanes;
    const double lanes = requests && laneSum ? double(laneSum) / double(requests) : 32.0; // 0: not counted
    if (stride <= bytes && lanes < kFullWarp)
        return fmt::format("{}: only {} of 32 lanes take part on average (the others inactive or predicated off "
                           "here), so the sectors carry bytes no active thread asked for; {}",
                           head, number(lanes),
                           store ? "where another branch writes the other lanes' elements, choose the value in the "
                                   "branches and write it once with the whole warp after them"
                                 : "where another branch reads the other lanes' elements, load them once with the "
                                   "whole warp before the branch");
    if (stride > bytes && bytes > 0)
        return fmt::format("{}: neighbouring threads {} addresses {} bytes apart{}; let consecutive threads {} "
                           "consecutive elements (or stage the data through shared memory)",
                           head, verb, stride, stride >= 32 ? ", so every thread needs a sector of its own" : "", verb);
    if (stride == bytes && bytes > 0)
        return fmt::format("{}: the warp {}s consecutive {}-byte elements, but they do not start on a 32-byte "
                           "sector boundary (the index is offset by part of a sector); align the first element "
                           "of each warp to 32 bytes",
                           head, verb, bytes);
    const std::uint32_t run = store ? x.global_st_run_bytes : x.global_ld_run_bytes;
    if (run > 0 && run % 32 == 0)
        return fmt::format("{}: the warp {}s runs of {} contiguous bytes (rows of a block narrower than 32 "
                           "threads), and the rows do not start on 32-byte sector boundaries; make the row pitch "
                           "a multiple of 32 bytes (pad the rows)",
                           head, verb, run);
    // Every lane a run of its own: neighbouring lanes are not neighbours in memory, and a
    // wider block would only spread them further (a transpose's column: 16 -> 32 sectors).
    if (run > 0 && run <= bytes)
        return fmt::format("{}: no two lanes {} neighbouring addresses and the lanes follow no one stride, as "
                           "with a transposed index (threadIdx.x walking down a column) or indices computed at "
                           "run time; for a transpose, stage a tile through shared memory so that both the read "
                           "and the write go along rows; for computed indices, sort or group the indices so that "
                           "neighbouring threads touch neighbouring addresses",
                           head, verb);
    if (run > 0)
        return fmt::format("{}: the warp {}s runs of only {} contiguous bytes (rows of a block narrower than 32 "
                           "threads), which fill their sectors only in part; make the block 32 threads wide in x",
                           head, verb, run);
    return fmt::format("{}: the lanes' addresses follow no common stride (a gather or scatter through "
                       "computed indices); sort or group the indices so that neighbouring threads touch "
                       "neighbouring addresses",
                       head);
}

std::string sharedText(const LineProfile& l, bool store)
{
    const ProfileExtras& x = l.extras;
    const std::uint32_t ways = x.worst_bank_conflict;
    const std::uint32_t stride = store ? x.shared_st_stride_bytes : x.shared_ld_stride_bytes;
    const std::uint32_t bytes = std::max<std::uint32_t>(x.shared_bytes, 1);
    const char* verb = store ? "writes" : "reads";
    const std::string head = fmt::format("{}-way bank conflict", ways);
    if (stride >= 128 && stride % 128 == 0 && stride % bytes == 0) {
        const std::uint32_t width = stride / bytes;
        return fmt::format("{}: the warp {} a column of a {}-wide shared array ({}-byte elements, rows {} bytes "
                           "apart), so every lane lands in the same bank; pad it to {}",
                           head, verb, width, bytes, stride, width + 1);
    }
    if (stride > 0 && stride % 8 == 0) {
        std::string meet;
        if (bytes <= 4 && ways > 1 && 32 % ways == 0)
            meet = fmt::format(", and lanes {} apart meet in one bank", 32 / ways);
        return fmt::format("{}: neighbouring threads {} shared addresses {} bytes ({} words) apart, an even "
                           "number of words{}; make the step an odd number of 4-byte words (pad the rows)",
                           head, store ? "write" : "read", stride, stride / 4, meet);
    }
    return fmt::format("{}: lanes {} distinct words of one bank (their addresses follow no common stride); "
                       "spread the indices over the 32 banks (word index mod 32)",
                       head, store ? "write" : "read");
}

} // namespace

const char* toString(ProfileFinding::Kind kind)
{
    switch (kind) {
    case ProfileFinding::Kind::GlobalLoad: return "global_load";
    case ProfileFinding::Kind::GlobalStore: return "global_store";
    case ProfileFinding::Kind::SharedLoad: return "shared_load";
    case ProfileFinding::Kind::SharedStore: return "shared_store";
    case ProfileFinding::Kind::Divergence: return "divergence";
    case ProfileFinding::Kind::LocalMemory: return "local_memory";
    case ProfileFinding::Kind::AtomicContention: return "atomic_contention";
    }
    return "unknown";
}

std::string sourceLine(const std::string& source, int line)
{
    if (line < 1)
        return {};
    std::size_t start = 0;
    for (int i = 1; i < line; ++i) {
        start = source.find('\n', start);
        if (start == std::string::npos)
            return {};
        ++start;
    }
    const auto end = source.find('\n', start);
    std::string text = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!text.empty() && text.back() == '\r')
        text.pop_back();
    return text;
}

std::string branchCondition(const std::string& line)
{
    const std::string s = withoutComment(line);
    std::size_t open = 0;
    for (const char* kw : {"if", "while"})
        if (keywordParen(s, kw, open) != std::string::npos)
            return std::string(trim(parenthesised(s, open)));
    if (keywordParen(s, "for", open) != std::string::npos) {
        const std::string head = parenthesised(s, open);
        const auto a = head.find(';');
        const auto b = a == std::string::npos ? std::string::npos : head.find(';', a + 1);
        if (b != std::string::npos && !trim(head.substr(a + 1, b - a - 1)).empty())
            return std::string(trim(head.substr(a + 1, b - a - 1)));
        return std::string(trim(head));
    }
    if (const auto q = s.find('?'); q != std::string::npos) {
        std::string before = s.substr(0, q);
        // After an assignment or return: `x = cond ? a : b;`
        for (std::size_t i = before.size(); i-- > 0;) {
            const char c = before[i];
            const char prev = i > 0 ? before[i - 1] : ' ';
            const char next = i + 1 < before.size() ? before[i + 1] : ' ';
            if (c == '=' && next != '=' && prev != '=' && prev != '!' && prev != '<' && prev != '>') {
                before = before.substr(i + 1);
                break;
            }
        }
        if (const auto r = before.find("return "); r != std::string::npos)
            before = before.substr(r + 7);
        std::string cond = std::string(trim(before));
        if (cond.size() > 1 && cond.front() == '(' && cond.back() == ')')
            cond = std::string(trim(cond.substr(1, cond.size() - 2)));
        return cond;
    }
    std::string t = std::string(trim(s));
    if (!t.empty() && (t.back() == '{' || t.back() == ';'))
        t = std::string(trim(t.substr(0, t.size() - 1)));
    return t;
}

std::vector<ProfileFinding> profileFindings(const KernelProfile& profile, const std::string& source)
{
    // Only lines of the main file are quoted from `source`.
    const std::string mainFile = profileMainFile(profile);

    std::vector<ProfileFinding> out;
    for (const LineFigures& lf : costliestLines(profile)) {
        const LineProfile& l = *lf.line;
        const ProfileFigures& f = lf.figures;
        if (f.costShare < kFindingMinCostShare)
            continue;
        const ProfileCounters& c = l.counters;
        const ProfileExtras& x = l.extras;
        auto add = [&](ProfileFinding::Kind kind, std::string text) {
            out.push_back({kind, l.file, l.line, f.costShare, std::move(text)});
        };
        if (c.global_ld_requests && f.ldExcess >= kSectorExcess)
            add(ProfileFinding::Kind::GlobalLoad, globalText(l, f, false));
        if (c.global_st_requests && f.stExcess >= kSectorExcess)
            add(ProfileFinding::Kind::GlobalStore, globalText(l, f, true));
        if (c.shared_ld_requests && f.sharedLdExcess >= kWavefrontExcess && x.worst_bank_conflict >= 2)
            add(ProfileFinding::Kind::SharedLoad, sharedText(l, false));
        if (c.shared_st_requests && f.sharedStExcess >= kWavefrontExcess && x.worst_bank_conflict >= 2)
            add(ProfileFinding::Kind::SharedStore, sharedText(l, true));
        const double divergentShare = x.branches ? double(c.divergent_branches) / double(x.branches) : 0.0;
        if (c.divergent_branches
            && (divergentShare >= kDivergentShare
                || (divergentShare >= kDivergentShareIdle && f.activeLanes <= kIdleLanes))) {
            std::string text = c.divergent_branches == x.branches
                ? std::string("every warp splits here")
                : fmt::format("{}% of the branches here split the warp ({} of {})",
                              number(100.0 * double(c.divergent_branches) / double(x.branches)), c.divergent_branches,
                              x.branches);
            if (l.file == mainFile && !source.empty()) {
                const std::string cond = branchCondition(sourceLine(source, l.line));
                if (!cond.empty())
                    text += fmt::format(": `{}`", cond);
            }
            if (f.activeLanes <= kIdleLanes)
                text += fmt::format(" (on average {} of 32 lanes active on this line)", number(f.activeLanes));
            add(ProfileFinding::Kind::Divergence, std::move(text));
        }
        if (c.local_ld_requests + c.local_st_requests)
            add(ProfileFinding::Kind::LocalMemory,
                fmt::format("local memory: {} load and {} store requests (one per warp-level instruction): an "
                            "array indexed at run time or registers spilled; index it with constants (unrolled "
                            "loops) or keep it in shared memory",
                            c.local_ld_requests, c.local_st_requests));
        if (c.atomic_requests && x.atomic_addresses
            && double(x.atomic_lanes) >= kLanesPerAddress * double(x.atomic_addresses))
            add(ProfileFinding::Kind::AtomicContention,
                fmt::format("{} lanes per request update the same address, one after another; reduce within the "
                            "warp first (__reduce_add_sync or __shfl_down_sync) and let one lane do the atomic",
                            number(double(x.atomic_lanes) / double(x.atomic_addresses))));
    }
    return out;
}

} // namespace kw
