#include "grade/CounterGoal.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kw::grade {
namespace {

double ratio(double a, double b) { return b == 0 ? 0 : a / b; }

} // namespace

const std::vector<std::pair<std::string, std::string>>& CounterGoal::metrics()
{
    static const std::vector<std::pair<std::string, std::string>> all = {
        {"global_sectors_per_request", "32-byte sectors per global load or store request"},
        {"global_ld_sectors_per_request", "sectors per global load request"},
        {"global_st_sectors_per_request", "sectors per global store request"},
        {"global_excess", "global sectors over the fewest the requests' bytes could fit (1 is ideal)"},
        {"bank_conflicts", "shared-memory wavefronts beyond one per request (loads and stores)"},
        {"shared_wavefronts_per_request", "shared-memory wavefronts per request"},
        {"global_reads_per_thread", "global load lanes per thread launched"},
        {"global_writes_per_thread", "global store lanes per thread launched"},
        {"atomics_per_thread", "atomic lanes per thread launched"},
        {"divergent_branches", "branches whose active lanes split"},
        {"instructions_per_thread", "warp-level instructions x 32 per thread launched"},
        {"inst_executed", "warp-level instructions"},
        {"local_requests", "local-memory loads and stores (spills, local arrays)"},
        {"shared_requests", "shared-memory load and store requests"},
    };
    return all;
}

bool CounterGoal::known(const std::string& metric)
{
    const auto& all = metrics();
    return std::any_of(all.begin(), all.end(), [&](const auto& m) { return m.first == metric; });
}

double CounterGoal::measure(const std::string& metric, const KernelProfile& profile, std::uint64_t threads)
{
    const ProfileCounters& c = profile.totals;
    const ProfileExtras& e = profile.totalExtras;
    const double t = double(threads);
    if (metric == "global_sectors_per_request")
        return ratio(double(c.global_ld_sectors + c.global_st_sectors),
                     double(c.global_ld_requests + c.global_st_requests));
    if (metric == "global_ld_sectors_per_request")
        return ratio(double(c.global_ld_sectors), double(c.global_ld_requests));
    if (metric == "global_st_sectors_per_request")
        return ratio(double(c.global_st_sectors), double(c.global_st_requests));
    if (metric == "global_excess") {
        const double ideal = double(e.global_ld_ideal_sectors + e.global_st_ideal_sectors);
        return ideal == 0 ? 1 : double(c.global_ld_sectors + c.global_st_sectors) / ideal;
    }
    if (metric == "bank_conflicts")
        return double(c.shared_ld_wavefronts + c.shared_st_wavefronts)
            - double(c.shared_ld_requests + c.shared_st_requests);
    if (metric == "shared_wavefronts_per_request")
        return ratio(double(c.shared_ld_wavefronts + c.shared_st_wavefronts),
                     double(c.shared_ld_requests + c.shared_st_requests));
    if (metric == "global_reads_per_thread")
        return ratio(double(e.global_ld_lanes), t);
    if (metric == "global_writes_per_thread")
        return ratio(double(e.global_st_lanes), t);
    if (metric == "atomics_per_thread")
        return ratio(double(e.atomic_lanes), t);
    if (metric == "divergent_branches")
        return double(c.divergent_branches);
    if (metric == "instructions_per_thread")
        return ratio(double(c.inst_executed) * 32, t);
    if (metric == "inst_executed")
        return double(c.inst_executed);
    if (metric == "local_requests")
        return double(c.local_ld_requests + c.local_st_requests);
    if (metric == "shared_requests")
        return double(c.shared_ld_requests + c.shared_st_requests);
    return 0;
}

GoalResult CounterGoal::grade(const KernelProfile& profile, std::uint64_t threads) const
{
    GoalResult r;
    r.metric = metric;
    r.value = measure(metric, profile, threads);
    // A tiny slack for ratios computed in floating point.
    const double eps = 1e-9;
    r.met = (!atMost || r.value <= *atMost + eps) && (!atLeast || r.value >= *atLeast - eps);
    r.text = fmt::format("{} {:.3g} (goal: {})", metric, r.value, describe().substr(metric.size() + 1));
    return r;
}

bool CounterGoal::appliesTo(const std::string& caseName) const
{
    return cases.empty() || std::find(cases.begin(), cases.end(), caseName) != cases.end();
}

std::string CounterGoal::describe() const
{
    std::string text = metric;
    if (atMost)
        text += fmt::format(" at most {:g}", *atMost);
    if (atLeast)
        text += fmt::format("{} at least {:g}", atMost ? "," : "", *atLeast);
    return text;
}

} // namespace kw::grade
