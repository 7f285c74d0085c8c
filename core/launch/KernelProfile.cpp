#include "launch/KernelProfile.hpp"

#include <algorithm>

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
    return *this;
}

} // namespace kw
