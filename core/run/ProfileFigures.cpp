#include "run/ProfileFigures.hpp"

#include "run/ProfileRatios.hpp"

#include <algorithm>
#include <map>

namespace kw {

namespace {

double ratio(double a, double b, double none) { return b > 0 ? a / b : none; }

} // namespace

double profileCost(const ProfileCounters& c)
{
    return double(c.inst_executed) + 4.0 * double(c.shared_ld_wavefronts + c.shared_st_wavefronts)
        + 8.0 * double(c.global_ld_sectors + c.global_st_sectors)
        + 16.0 * double(c.local_ld_requests + c.local_st_requests) + 16.0 * double(c.atomic_requests);
}

ProfileFigures figuresOf(const ProfileCounters& c, const ProfileExtras& x)
{
    ProfileFigures f;
    const auto ldReq = double(c.global_ld_requests), stReq = double(c.global_st_requests);
    f.ldSectorsPerRequest = ratio(double(c.global_ld_sectors), ldReq, 0);
    f.ldIdealSectorsPerRequest = ratio(double(x.global_ld_ideal_sectors), ldReq, 0);
    f.ldExcess = ratio(double(c.global_ld_sectors), double(x.global_ld_ideal_sectors), 1);
    f.stSectorsPerRequest = ratio(double(c.global_st_sectors), stReq, 0);
    f.stIdealSectorsPerRequest = ratio(double(x.global_st_ideal_sectors), stReq, 0);
    f.stExcess = ratio(double(c.global_st_sectors), double(x.global_st_ideal_sectors), 1);
    f.sharedLdWays = ratio(double(c.shared_ld_wavefronts), double(c.shared_ld_requests), 0);
    f.sharedStWays = ratio(double(c.shared_st_wavefronts), double(c.shared_st_requests), 0);
    f.sharedLdExcess = ratio(double(c.shared_ld_wavefronts), double(x.shared_ld_ideal_wavefronts), 1);
    f.sharedStExcess = ratio(double(c.shared_st_wavefronts), double(x.shared_st_ideal_wavefronts), 1);
    const std::uint64_t wavefronts = c.shared_ld_wavefronts + c.shared_st_wavefronts;
    const std::uint64_t requests = c.shared_ld_requests + c.shared_st_requests;
    f.bankConflicts = wavefronts > requests ? wavefronts - requests : 0;
    f.excessWavefronts = wavefronts > x.shared_ideal_wavefronts ? wavefronts - x.shared_ideal_wavefronts : 0;
    f.branchEfficiency = ProfileRatios::branchEfficiency(c, x).value_or(1.0);
    f.activeLanes = ProfileRatios::activeLanes(c).value_or(0.0);
    f.cost = profileCost(c);
    f.costShare = 1;
    return f;
}

ProfileFigures kernelFigures(const KernelProfile& p) { return figuresOf(p.totals, p.totalExtras); }

std::string profileMainFile(const KernelProfile& p)
{
    std::map<std::string, std::uint64_t> perFile;
    for (const LineProfile& l : p.lines)
        perFile[l.file] += l.counters.inst_executed;
    std::string best;
    std::uint64_t most = 0;
    for (const auto& [file, n] : perFile)
        if (n > most) {
            best = file;
            most = n;
        }
    return best;
}

std::vector<LineFigures> costliestLines(const KernelProfile& p, std::size_t limit)
{
    const double total = profileCost(p.totals);
    std::vector<LineFigures> out;
    out.reserve(p.lines.size());
    for (const LineProfile& l : p.lines) {
        LineFigures lf{&l, figuresOf(l.counters, l.extras)};
        lf.figures.costShare = total > 0 ? lf.figures.cost / total : 0;
        out.push_back(lf);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const LineFigures& a, const LineFigures& b) { return a.figures.cost > b.figures.cost; });
    if (limit && out.size() > limit)
        out.resize(limit);
    return out;
}

} // namespace kw
