// Launch values are evaluated live and flagged before Run when invalid or over
// the device's limits.
#include "LaunchPanel.hpp"
#include "LaunchShapeView.hpp"
#include "Occupancy.hpp"

#include <QLineEdit>
#include <gtest/gtest.h>

using namespace kw;

namespace {
LaunchSpecText launch(std::string gx, std::string bx, std::string shared = "0")
{
    LaunchSpecText l;
    l.grid = {gx, "1", "1"};
    l.block = {bx, "1", "1"};
    l.sharedBytes = shared;
    return l;
}
bool anyContains(const QStringList& list, const QString& text)
{
    for (const QString& s : list)
        if (s.contains(text))
            return true;
    return false;
}
} // namespace

TEST(Launch, ValidLaunchIsEvaluated)
{
    LaunchPanel panel;
    panel.setVariables({{"n", "1000"}, {"block", "250"}});
    panel.setLaunch(launch("n / block", "block"), {});
    EXPECT_TRUE(panel.issues().isEmpty()) << panel.issues().join('\n').toStdString();
    ASSERT_TRUE(panel.grid() && panel.block());
    EXPECT_EQ(panel.grid()->x, 4u);
    EXPECT_EQ(panel.block()->x, 250u);
}

TEST(Launch, TooManyThreadsPerBlockIsFlagged)
{
    LaunchPanel panel;
    panel.setVariables({{"block", "2048"}});
    panel.setLaunch(launch("1", "block"), {});
    ASSERT_FALSE(panel.issues().isEmpty());
    EXPECT_TRUE(anyContains(panel.issues(), "launch.block[0]")) << panel.issues().join(QChar(10)).toStdString();
    EXPECT_TRUE(anyContains(panel.issues(), "limit"));
    EXPECT_FALSE(panel.block());
    auto edits = panel.findChildren<QLineEdit*>();
    bool red = false;
    for (QLineEdit* e : edits)
        red = red || e->styleSheet().contains("#d9342b");
    EXPECT_TRUE(red);
}

TEST(Launch, ZeroNegativeAndBadExpressionsAreFlagged)
{
    LaunchPanel panel;
    panel.setVariables({{"n", "10"}});
    panel.setLaunch(launch("n - 10", "32"), {});
    EXPECT_TRUE(anyContains(panel.issues(), "at least 1"));
    panel.setLaunch(launch("1", "nope * 2"), {});
    EXPECT_FALSE(panel.issues().isEmpty());
    panel.setLaunch(launch("1", "64", "-5"), {});
    EXPECT_TRUE(anyContains(panel.issues(), "negative"));
}

TEST(Launch, SharedMemoryOverTheLimitIsFlagged)
{
    LaunchPanel panel;
    panel.setLaunch(launch("1", "64", "1024*1024"), {});
    EXPECT_TRUE(anyContains(panel.issues(), "shared memory")) << panel.issues().join('\n').toStdString();
}

TEST(Launch, LimitsFollowTheChosenDevice)
{
    LaunchPanel panel;
    DeviceInfo small;
    small.id = "cuda:0";
    small.name = "Small GPU";
    small.limits.maxThreadsPerBlock = 512;
    small.limits.maxBlock = Dim3{512, 512, 64};
    panel.setDevices({small});
    panel.setCurrentDevice("cuda:0");
    panel.setLaunch(launch("1", "1024"), {});
    EXPECT_TRUE(anyContains(panel.issues(), "Small GPU"));
    panel.setCurrentDevice("sim");
    EXPECT_TRUE(panel.issues().isEmpty());
}

TEST(Launch, RunSettingsRoundTrip)
{
    LaunchPanel panel;
    RunSettings r;
    r.repeats = 25;
    r.warmup = 3;
    r.timeLimitSeconds = 2.5;
    panel.setLaunch(launch("1", "1"), r);
    EXPECT_EQ(panel.runSettings().repeats, 25);
    EXPECT_EQ(panel.runSettings().warmup, 3);
    EXPECT_DOUBLE_EQ(panel.runSettings().timeLimitSeconds, 2.5);
}

TEST(Launch, ShapeViewDescribesAThread)
{
    LaunchShapeView view;
    view.setShape(Dim3{4, 1, 1}, Dim3{256, 1, 1});
    view.selectBlock(Dim3{2, 0, 0});
    PrintfOutput out;
    out.lines.push_back({Dim3{2, 0, 0}, Dim3{5, 0, 0}, "hello from 517"});
    view.setPrintf(out);
    const QString s = view.describeThread(Dim3{5, 0, 0});
    EXPECT_TRUE(s.contains("blockIdx (2, 0, 0)"));
    EXPECT_TRUE(s.contains("threadIdx (5, 0, 0)"));
    EXPECT_TRUE(s.contains("517"));
    EXPECT_TRUE(s.contains("hello from 517"));
}

TEST(Launch, OccupancyFromThreadsAndShared)
{
    DeviceLimits lim; // 2048 threads per SM, 48 KiB shared
    EXPECT_DOUBLE_EQ(Occupancy::compute(lim, 256, 0, 0).fraction, 1.0);
    const Occupancy o = Occupancy::compute(lim, 256, 24 * 1024, 0);
    EXPECT_EQ(o.blocksPerSm, 2);
    EXPECT_EQ(o.limitedBy, "shared memory");
}
