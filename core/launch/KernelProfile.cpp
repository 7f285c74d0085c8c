#include "launch/KernelProfile.hpp"

#include <algorithm>
#include <utility>

namespace kw {

ProfileCounters& ProfileCounters::operator+=(const ProfileCounters& o)
{
    inst_executed += o.inst_executed;
    thread_inst_executed += o.thread_inst_executed;
    divergent_branches += o.divergent_branches;
    global_ld_requests += o.global_ld_requests;
    global_ld_sectors += o.global_ld_sectors;
    global_st_requests += o.global_st_requests;
    global_st_sectors += o.global_st_sectors;
    shared_ld_requests += o.shared_ld_requests;
    shared_ld_wavefronts += o.shared_ld_wavefronts;
    shared_st_requests += o.shared_st_requests;
    shared_st_wavefronts += o.shared_st_wavefronts;
    local_ld_requests += o.local_ld_requests;
    local_st_requests += o.local_st_requests;
    atomic_requests += o.atomic_requests;
    return *this;
}

ProfileExtras& ProfileExtras::operator+=(const ProfileExtras& o)
{
    branches += o.branches;
    global_ld_ideal_sectors += o.global_ld_ideal_sectors;
    global_st_ideal_sectors += o.global_st_ideal_sectors;
    shared_ideal_wavefronts += o.shared_ideal_wavefronts;
    worst_bank_conflict = std::max(worst_bank_conflict, o.worst_bank_conflict);
    if (global_stride_bytes == 0)
        global_stride_bytes = o.global_stride_bytes;
    shared_ld_ideal_wavefronts += o.shared_ld_ideal_wavefronts;
    shared_st_ideal_wavefronts += o.shared_st_ideal_wavefronts;
    // Strides and runs are first regular patterns: the first one seen stays.
    for (auto [mine, theirs] : {std::pair{&global_ld_stride_bytes, o.global_ld_stride_bytes},
                                std::pair{&global_st_stride_bytes, o.global_st_stride_bytes},
                                std::pair{&shared_ld_stride_bytes, o.shared_ld_stride_bytes},
                                std::pair{&shared_st_stride_bytes, o.shared_st_stride_bytes},
                                std::pair{&global_ld_run_bytes, o.global_ld_run_bytes},
                                std::pair{&global_st_run_bytes, o.global_st_run_bytes}})
        if (*mine == 0)
            *mine = theirs;
    global_ld_bytes = std::max(global_ld_bytes, o.global_ld_bytes);
    global_st_bytes = std::max(global_st_bytes, o.global_st_bytes);
    shared_bytes = std::max(shared_bytes, o.shared_bytes);
    global_ld_lanes += o.global_ld_lanes;
    global_st_lanes += o.global_st_lanes;
    atomic_lanes += o.atomic_lanes;
    atomic_addresses += o.atomic_addresses;
    return *this;
}

void KernelProfile::add(const KernelProfile& other, const std::string& step)
{
    totals += other.totals;
    totalExtras += other.totalExtras;
    for (const LineProfile& l : other.lines) {
        auto it = std::find_if(lines.begin(), lines.end(),
                               [&](const LineProfile& m) { return m.file == l.file && m.line == l.line; });
        if (it == lines.end()) {
            LineProfile fresh = l;
            fresh.steps.clear();
            lines.push_back(std::move(fresh));
            it = lines.end() - 1;
        } else {
            it->counters += l.counters;
            it->extras += l.extras;
        }
        for (const std::string& s : step.empty() ? l.steps : std::vector<std::string>{step})
            if (std::find(it->steps.begin(), it->steps.end(), s) == it->steps.end())
                it->steps.push_back(s);
    }
    // File/line order, the files in the order they first appear.
    std::vector<std::string> files;
    for (const LineProfile& l : lines)
        if (std::find(files.begin(), files.end(), l.file) == files.end())
            files.push_back(l.file);
    const auto rank = [&](const LineProfile& l) {
        return std::pair(std::find(files.begin(), files.end(), l.file) - files.begin(), l.line);
    };
    std::stable_sort(lines.begin(), lines.end(),
                     [&](const LineProfile& a, const LineProfile& b) { return rank(a) < rank(b); });
    samples.insert(samples.end(), other.samples.begin(), other.samples.end());
}

} // namespace kw
