// Goals on the simulator's counters, measured from a profile worked out by hand.
#include "grade/CounterGoal.hpp"

#include <gtest/gtest.h>

using kw::grade::CounterGoal;

namespace {

kw::KernelProfile profile()
{
    kw::KernelProfile p;
    p.totals.global_ld_requests = 10;
    p.totals.global_ld_sectors = 40;
    p.totals.global_st_requests = 5;
    p.totals.global_st_sectors = 160;
    p.totalExtras.global_ld_ideal_sectors = 40;
    p.totalExtras.global_st_ideal_sectors = 20;
    p.totals.shared_ld_requests = 8;
    p.totals.shared_ld_wavefronts = 8;
    p.totals.shared_st_requests = 8;
    p.totals.shared_st_wavefronts = 23;
    p.totalExtras.global_ld_lanes = 320;
    p.totalExtras.global_st_lanes = 160;
    p.totals.inst_executed = 100;
    p.totals.divergent_branches = 3;
    return p;
}

} // namespace

TEST(CounterGoal, Metrics)
{
    const auto p = profile();
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_sectors_per_request", p, 160), 200.0 / 15);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_ld_sectors_per_request", p, 160), 4);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_st_sectors_per_request", p, 160), 32);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_excess", p, 160), 200.0 / 60);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("bank_conflicts", p, 160), 15);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_reads_per_thread", p, 160), 2);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_writes_per_thread", p, 160), 1);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("instructions_per_thread", p, 160), 20);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("divergent_branches", p, 160), 3);
    for (const auto& [name, what] : CounterGoal::metrics()) {
        EXPECT_TRUE(CounterGoal::known(name));
        EXPECT_FALSE(what.empty());
    }
    EXPECT_FALSE(CounterGoal::known("speed"));
    // Nothing loaded: no division by zero, and no excess.
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_ld_sectors_per_request", kw::KernelProfile{}, 0), 0);
    EXPECT_DOUBLE_EQ(CounterGoal::measure("global_excess", kw::KernelProfile{}, 0), 1);
}

TEST(CounterGoal, AtMostAndAtLeast)
{
    const auto p = profile();
    CounterGoal noConflicts;
    noConflicts.metric = "bank_conflicts";
    noConflicts.atMost = 0;
    const auto r = noConflicts.grade(p, 160);
    EXPECT_FALSE(r.met);
    EXPECT_DOUBLE_EQ(r.value, 15);
    EXPECT_EQ(r.text, "bank_conflicts 15 (goal: at most 0)");

    CounterGoal reads;
    reads.metric = "global_reads_per_thread";
    reads.atMost = 2;
    EXPECT_TRUE(reads.grade(p, 160).met); // exactly at the bound
    EXPECT_FALSE(reads.grade(p, 159).met);
    reads.atLeast = 1.5;
    EXPECT_EQ(reads.describe(), "global_reads_per_thread at most 2, at least 1.5");
    EXPECT_TRUE(reads.grade(p, 160).met);
    EXPECT_FALSE(reads.grade(p, 320).met); // 1 read per thread: under the floor
}
