#include "run/ProfileReportText.hpp"

#include "run/ProfileFigures.hpp"
#include "run/ProfileFindings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace kw {

namespace {

std::string num(double v)
{
    const double r = std::round(v);
    if (std::fabs(v - r) < 0.05)
        return fmt::format("{}", static_cast<long long>(r));
    return fmt::format("{:.1f}", v);
}

std::string pct(double share) { return fmt::format("{:.1f}%", 100.0 * share); }

std::string baseName(const std::string& path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string where(const LineProfile& l, const std::string& mainFile)
{
    return l.file == mainFile ? fmt::format("{}", l.line) : fmt::format("{}:{}", baseName(l.file), l.line);
}

std::string quoted(const LineProfile& l, const std::string& mainFile, const std::string& source)
{
    if (l.file != mainFile)
        return {};
    std::string s = sourceLine(source, l.line);
    std::size_t b = 0;
    while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    s = s.substr(b);
    if (s.size() > 60)
        s = s.substr(0, 57) + "...";
    return s;
}

void totals(std::string& o, const KernelProfile& p)
{
    const ProfileCounters& c = p.totals;
    const ProfileExtras& x = p.totalExtras;
    const ProfileFigures f = kernelFigures(p);
    o += fmt::format("  {:<15}{} warp-level, {} thread-level ({} of 32 lanes active)\n", "instructions",
                     c.inst_executed, c.thread_inst_executed, num(f.activeLanes));
    if (x.branches)
        o += fmt::format("  {:<15}{}, {} divergent (branch efficiency {})\n", "branches", x.branches,
                         c.divergent_branches, pct(f.branchEfficiency));
    if (c.global_ld_requests)
        o += fmt::format("  {:<15}{} requests, {} sectors: {} sectors/request (ideal {})\n", "global loads",
                         c.global_ld_requests, c.global_ld_sectors, num(f.ldSectorsPerRequest),
                         num(f.ldIdealSectorsPerRequest));
    if (c.global_st_requests)
        o += fmt::format("  {:<15}{} requests, {} sectors: {} sectors/request (ideal {})\n", "global stores",
                         c.global_st_requests, c.global_st_sectors, num(f.stSectorsPerRequest),
                         num(f.stIdealSectorsPerRequest));
    if (c.shared_ld_requests)
        o += fmt::format("  {:<15}{} requests, {} wavefronts: {} per request ({} bank conflicts)\n", "shared loads",
                         c.shared_ld_requests, c.shared_ld_wavefronts, num(f.sharedLdWays),
                         c.shared_ld_wavefronts - c.shared_ld_requests);
    if (c.shared_st_requests)
        o += fmt::format("  {:<15}{} requests, {} wavefronts: {} per request ({} bank conflicts)\n", "shared stores",
                         c.shared_st_requests, c.shared_st_wavefronts, num(f.sharedStWays),
                         c.shared_st_wavefronts - c.shared_st_requests);
    if (c.shared_ld_requests + c.shared_st_requests && x.worst_bank_conflict > 1)
        o += fmt::format("  {:<15}{}-way\n", "worst conflict", x.worst_bank_conflict);
    if (c.local_ld_requests + c.local_st_requests)
        o += fmt::format("  {:<15}{} load, {} store requests\n", "local memory", c.local_ld_requests,
                         c.local_st_requests);
    if (c.atomic_requests)
        o += fmt::format("  {:<15}{} requests\n", "atomics", c.atomic_requests);
}

// "32 (4)": per request against the ideal; "-" when the line has none.
std::string perRequest(std::uint64_t requests, double per, double ideal)
{
    return requests ? fmt::format("{} ({})", num(per), num(ideal)) : std::string("-");
}

// The costliest `lines` lines of `p` as a table; with `steps`, the steps that ran each.
void lineTable(std::string& o, const KernelProfile& p, const std::string& mainFile, const std::string& source,
               std::size_t lines, bool steps)
{
    const auto top = costliestLines(p, lines);
    if (!top.empty()) {
        o += fmt::format("costliest lines (cost: issue slots, see docs/profile.md; sectors and wavefronts per "
                         "request with the ideal in parentheses):\n");
        o += fmt::format("  {:>6} {:>6} {:>9} {:>10} {:>10} {:>10} {:>7}  {}\n", "line", "cost", "inst", "gld sec",
                         "gst sec", "shared wf", "branch", "source");
        for (const LineFigures& lf : top) {
            const LineProfile& l = *lf.line;
            const ProfileCounters& c = l.counters;
            const ProfileFigures& f = lf.figures;
            const std::uint64_t shReq = c.shared_ld_requests + c.shared_st_requests;
            const double shWays = shReq ? double(c.shared_ld_wavefronts + c.shared_st_wavefronts) / double(shReq) : 0.0;
            const double shIdeal = shReq ? double(l.extras.shared_ideal_wavefronts) / double(shReq) : 0.0;
            o += fmt::format(
                "  {:>6} {:>6} {:>9} {:>10} {:>10} {:>10} {:>7}  {}\n", where(l, mainFile), pct(f.costShare),
                c.inst_executed, perRequest(c.global_ld_requests, f.ldSectorsPerRequest, f.ldIdealSectorsPerRequest),
                perRequest(c.global_st_requests, f.stSectorsPerRequest, f.stIdealSectorsPerRequest),
                perRequest(shReq, shWays, shIdeal), l.extras.branches ? pct(f.branchEfficiency) : std::string("-"),
                quoted(l, mainFile, source));
            if (steps && !l.steps.empty())
                o += fmt::format("  {:>6} {}{}\n", "", l.steps.size() > 1 ? "steps " : "step ",
                                 fmt::join(l.steps, ", "));
        }
    }
}

} // namespace

std::string profileReportText(const RunResult& result, const std::string& source, std::size_t lines)
{
    if (!result.profile)
        return {};
    const KernelProfile& p = *result.profile;
    const std::string mainFile = profileMainFile(p);
    std::string o = "profile (simulator, counted per warp-level instruction as Nsight Compute counts them):\n";
    if (!result.steps.empty())
        o += "all steps together:\n";
    totals(o, p);
    lineTable(o, p, mainFile, source, lines, !result.steps.empty());
    const auto findings = profileFindings(p, source);
    if (!findings.empty()) {
        o += "findings:\n";
        for (const ProfileFinding& f : findings) {
            const LineProfile lp{f.file, f.line, {}, {}, {}};
            o += fmt::format("  line {}: {}\n", where(lp, mainFile), f.text);
        }
    }
    // A document of steps: each launch step's own counters, summed over its runs.
    for (const StepResult& s : result.steps) {
        if (!s.profile)
            continue;
        o += fmt::format("step {} ({}{}, {} run{}):\n", s.path, s.name == s.kernel ? "" : s.name + ": ", s.kernel,
                         s.runs, s.runs == 1 ? "" : "s");
        totals(o, *s.profile);
        lineTable(o, *s.profile, mainFile, source, std::min<std::size_t>(lines, 5), false);
    }
    return o;
}

void printProfile(std::FILE* out, const RunResult& result, const std::string& source, std::size_t lines)
{
    const std::string text = profileReportText(result, source, lines);
    if (!text.empty())
        std::fputs(text.c_str(), out);
}

} // namespace kw
