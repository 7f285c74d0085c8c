// The one launch-limit check both backends and the launch panel use.
#include "launch/LaunchLimits.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {

LaunchConfig config(Dim3 grid, Dim3 block, std::uint32_t shared = 0)
{
    LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.sharedBytes = shared;
    return c;
}

bool mentions(const std::vector<LimitViolation>& v, const std::string& text)
{
    for (const auto& x : v)
        if (x.message.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST(LaunchLimits, AnAllowedLaunchHasNoViolation)
{
    EXPECT_TRUE(checkLaunchLimits(config({65535, 65535, 1}, {32, 32, 1}, 1024), DeviceLimits{}).empty());
}

TEST(LaunchLimits, EveryBrokenLimitIsNamedWithItsAxis)
{
    const auto v = checkLaunchLimits(config({1, 70000, 1}, {3, 4, 100}, 64 << 10), DeviceLimits{});
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].field, LimitViolation::Field::Grid);
    EXPECT_EQ(v[0].axis, 1);
    EXPECT_EQ(v[0].message, "grid.y = 70000 exceeds the device's grid limit of 65535");
    EXPECT_EQ(v[1].message, "block.z = 100 exceeds the device's block limit of 64");
    EXPECT_EQ(v[2].message, "block 3x4x100 has 1200 threads; the device's limit is 1024 threads per block");
    EXPECT_EQ(v[3].field, LimitViolation::Field::Shared);
    EXPECT_TRUE(mentions(v, "65536 bytes (0 static + 65536 dynamic)"));
}

TEST(LaunchLimits, ZeroAndNegativeDimensionsAreRefused)
{
    EXPECT_EQ(checkDimension(LimitViolation::Field::Block, 0, 0, DeviceLimits{}),
              "block.x is 0; every launch dimension must be at least 1");
    EXPECT_EQ(checkDimension(LimitViolation::Field::Grid, 2, -3, DeviceLimits{}),
              "grid.z is -3; every launch dimension must be at least 1");
    EXPECT_FALSE(checkDimension(LimitViolation::Field::Grid, 0, 2147483647, DeviceLimits{}));
}

TEST(LaunchLimits, TheKernelsOwnLimitIsNamedAfterTheDevices)
{
    KernelLimits k;
    k.maxThreads = 128;
    k.registers = 200;
    const auto m = checkThreadsPerBlock({256, 1, 1}, DeviceLimits{}, k);
    ASSERT_TRUE(m);
    EXPECT_NE(m->find("this kernel allows at most 128"), std::string::npos) << *m;
    EXPECT_NE(m->find("200 registers"), std::string::npos) << *m;
}

TEST(LaunchLimits, StaticSharedCountsTowardsTheLimit)
{
    KernelLimits k;
    k.staticShared = 40 << 10;
    EXPECT_FALSE(checkSharedMemory(8 << 10, DeviceLimits{}, k));
    EXPECT_TRUE(checkSharedMemory((8 << 10) + 1, DeviceLimits{}, k));
    EXPECT_EQ(checkSharedMemory(-1, DeviceLimits{}, k), "dynamic shared memory is -1 bytes; it cannot be negative");
}

TEST(LaunchLimits, RefusalIsALimitErrorListingAllReasons)
{
    try {
        refuseViolations("k", checkLaunchLimits(config({0, 1, 1}, {2048, 1, 1}), DeviceLimits{}));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Limit);
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("kernel k: ", 0), 0u) << m;
        EXPECT_NE(m.find("grid.x is 0"), std::string::npos) << m;
        EXPECT_NE(m.find("block.x = 2048"), std::string::npos) << m;
        EXPECT_NE(m.find("; "), std::string::npos) << m;
    }
    EXPECT_NO_THROW(refuseViolations("k", {}));
}
