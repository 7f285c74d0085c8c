// TimingStats (median, quartiles, the median's order-statistic confidence interval) and
// WarmupRule (when warm-up launches stop), against values worked out by hand.
#include "launch/TimingStats.hpp"
#include "launch/WarmupRule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using kw::TimingStats;
using kw::WarmupRule;

TEST(TimingStats, OrderStatisticsOfUnsortedSamples)
{
    const auto s = TimingStats::compute({5, 1, 4, 2, 3});
    EXPECT_EQ(s.count, 5u);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 5);
    EXPECT_DOUBLE_EQ(s.median, 3);
    EXPECT_DOUBLE_EQ(s.mean, 3);
    EXPECT_DOUBLE_EQ(s.q1, 2);
    EXPECT_DOUBLE_EQ(s.q3, 4);
}

TEST(TimingStats, MedianCoverageIsTheBinomialSum)
{
    // n = 10, [x(2), x(9)]: P(2 <= B <= 8) = 1 - 2 (1 + 10) / 1024 = 1002/1024.
    EXPECT_NEAR(TimingStats::medianCoverage(10, 2), 1002.0 / 1024.0, 1e-12);
    // [x(3), x(8)]: 1 - 2 (1 + 10 + 45) / 1024 = 912/1024 = 0.890625.
    EXPECT_NEAR(TimingStats::medianCoverage(10, 3), 912.0 / 1024.0, 1e-12);
    // [min, max] of 5: 1 - 2/32.
    EXPECT_NEAR(TimingStats::medianCoverage(5, 1), 30.0 / 32.0, 1e-12);
    EXPECT_EQ(TimingStats::medianCoverage(10, 6), 0.0); // no such interval
}

TEST(TimingStats, ConfidenceIntervalPicksTheNarrowestRanksCoveringNinetyFivePercent)
{
    std::vector<double> ten;
    for (int i = 10; i >= 1; --i)
        ten.push_back(i);
    const auto s = TimingStats::compute(ten);
    // r = 2 covers 97.9 %, r = 3 only 89.1 %: [x(2), x(9)] = [2, 9].
    EXPECT_DOUBLE_EQ(s.ciLow, 2);
    EXPECT_DOUBLE_EQ(s.ciHigh, 9);
    EXPECT_NEAR(s.ciLevel, 1002.0 / 1024.0, 1e-12);
    EXPECT_GE(s.ciLevel, TimingStats::kCiLevel);

    // n = 100: the textbook ranks are 40 and 61 (coverage 0.9648).
    std::vector<double> hundred;
    for (int i = 1; i <= 100; ++i)
        hundred.push_back(i);
    const auto h = TimingStats::compute(hundred);
    EXPECT_DOUBLE_EQ(h.ciLow, 40);
    EXPECT_DOUBLE_EQ(h.ciHigh, 61);
    EXPECT_NEAR(h.ciLevel, 0.9648, 1e-4);
    EXPECT_LT(TimingStats::medianCoverage(100, 41), TimingStats::kCiLevel);
}

TEST(TimingStats, FewSamplesGiveMinToMaxAndSayHowSureThatIs)
{
    const auto s = TimingStats::compute({3, 1, 2});
    EXPECT_DOUBLE_EQ(s.ciLow, 1);
    EXPECT_DOUBLE_EQ(s.ciHigh, 3);
    EXPECT_NEAR(s.ciLevel, 0.75, 1e-12); // 1 - 2^(1-3): below the 95 % asked for
    const auto one = TimingStats::compute({7});
    EXPECT_DOUBLE_EQ(one.ciLow, 7);
    EXPECT_DOUBLE_EQ(one.ciHigh, 7);
    EXPECT_EQ(one.ciLevel, 0.0);
    EXPECT_EQ(TimingStats::compute({}).count, 0u);
}

// The interval's ranks by their definition (the narrowest r whose coverage is at least the
// level), for every count up to 400 and for the tens of thousands of repeats a simulator
// run times in its budget.
TEST(TimingStats, TheIntervalsRanksAreTheNarrowestThatCoverEnough)
{
    for (std::size_t n : {1, 2, 3, 5, 6, 7, 10, 17, 64, 99, 100, 101, 255, 400, 20000}) {
        std::vector<double> ranks(n);
        for (std::size_t i = 0; i < n; ++i)
            ranks[i] = double(i + 1);
        std::size_t r = 1;
        if (n <= 400) // the definition, summed afresh for each r
            while (2 * (r + 1) <= n && TimingStats::medianCoverage(n, r + 1) >= TimingStats::kCiLevel)
                ++r;
        else // normal approximation of the binomial's quantile, within a rank
            r = std::size_t(double(n) / 2 - 1.959964 * std::sqrt(double(n)) / 2);
        const TimingStats s = TimingStats::compute(ranks);
        if (n <= 400) {
            EXPECT_EQ(s.ciLow, double(r)) << "n = " << n;
            EXPECT_EQ(s.ciHigh, double(n + 1 - r)) << "n = " << n;
            if (n > 1)
                EXPECT_NEAR(s.ciLevel, TimingStats::medianCoverage(n, r), 1e-9) << "n = " << n;
        } else {
            EXPECT_NEAR(s.ciLow, double(r), 1.0) << "n = " << n;
            EXPECT_NEAR(s.ciLevel, 0.95, 0.002) << "n = " << n;
        }
    }
}

TEST(WarmupRule, RunsTheMinimumThenUntilTheLastThreeAgree)
{
    const WarmupRule rule(2);
    EXPECT_TRUE(rule.more({}));
    EXPECT_TRUE(rule.more({1.0}));
    EXPECT_TRUE(rule.more({1.5, 1.0}));           // settled needs three
    EXPECT_TRUE(rule.more({1.5, 1.2, 1.0, 1.0})); // 1.2 is 20 % off
    EXPECT_FALSE(rule.more({1.5, 1.2, 1.0, 1.01, 0.995}));
    EXPECT_TRUE(rule.settled({1.0, 1.019, 0.981}));
    EXPECT_FALSE(rule.settled({1.0, 1.03, 1.0}));
}

TEST(WarmupRule, TinyKernelsSettleWithinTwoMicroseconds)
{
    const WarmupRule rule(1);
    EXPECT_FALSE(rule.more({0.004, 0.005, 0.0035})); // 3.5 to 5 µs: within 2 µs of 4 µs
    EXPECT_TRUE(rule.more({0.004, 0.009, 0.0035}));
}

TEST(WarmupRule, StopsAtItsLimitsAndWhenTurnedOff)
{
    const WarmupRule off(0);
    EXPECT_FALSE(off.more({}));
    const WarmupRule rule(1);
    std::vector<double> noisy;
    for (std::size_t i = 0; i < WarmupRule::kMaxRuns; ++i)
        noisy.push_back(i % 2 ? 1.0 : 2.0);
    EXPECT_FALSE(rule.more(noisy));
    EXPECT_FALSE(rule.settled(noisy));
    EXPECT_FALSE(rule.more({1000.0, 700.0, 400.0})); // two seconds of kernel time
    // The minimum wins over the limits only up to the limits.
    EXPECT_TRUE(WarmupRule(5).more({1.0, 1.0, 1.0}));
}
