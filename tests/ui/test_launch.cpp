// Launch values are evaluated live and flagged before Run when invalid or over
// the device's limits.
#include "LaunchPanel.hpp"
#include "LaunchShapeView.hpp"
#include "launch/Occupancy.hpp"
#include "support/TextFile.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
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
    QSignalSpy changed(&panel, &LaunchPanel::changed);
    panel.setLaunch(launch("1", "1"), r);
    // What the user sees: the three fields show the document's values.
    const auto spins = panel.findChildren<QSpinBox*>();
    const auto limits = panel.findChildren<QDoubleSpinBox*>();
    ASSERT_EQ(spins.size(), 2);
    ASSERT_EQ(limits.size(), 1);
    QSpinBox* warmup = spins[0]->value() == 3 ? spins[0] : spins[1];
    QSpinBox* repeats = spins[0]->value() == 3 ? spins[1] : spins[0];
    EXPECT_EQ(warmup->value(), 3);
    EXPECT_EQ(repeats->value(), 25);
    EXPECT_DOUBLE_EQ(limits[0]->value(), 2.5);

    // What the user types reaches the run settings, and each edit is announced.
    changed.clear();
    repeats->setValue(7);
    warmup->setValue(0);
    limits[0]->setValue(0.5);
    EXPECT_EQ(changed.count(), 3);
    EXPECT_EQ(panel.runSettings().repeats, 7);
    EXPECT_EQ(panel.runSettings().warmup, 0);
    EXPECT_DOUBLE_EQ(panel.runSettings().timeLimitSeconds, 0.5);
    // Outside the fields' ranges, the nearest allowed value.
    repeats->setValue(0);
    EXPECT_EQ(panel.runSettings().repeats, 1) << "at least one timed launch";
}

TEST(Launch, TheL2FlushIsShownAndChosenAndFieldsWithoutAWidgetStay)
{
    LaunchPanel panel;
    RunSettings r;
    r.l2Flush = L2Flush::Off;
    r.graph = false;
    r.printfBufferBytes = 4096;
    panel.setLaunch(launch("1", "1"), r);
    QComboBox* flush = nullptr;
    for (QComboBox* c : panel.findChildren<QComboBox*>())
        if (c->currentText().startsWith("L2 flush"))
            flush = c;
    ASSERT_NE(flush, nullptr) << "no L2 flush choice in the run row";
    EXPECT_EQ(flush->currentText(), "L2 flush: off");
    EXPECT_EQ(panel.runSettings().l2Flush, L2Flush::Off);
    EXPECT_FALSE(panel.runSettings().graph) << "a document's run.graph survives an edit of the run row";
    EXPECT_EQ(panel.runSettings().printfBufferBytes, 4096u);

    QSignalSpy changed(&panel, &LaunchPanel::changed);
    flush->setCurrentIndex(flush->findText("L2 flush: on"));
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(panel.runSettings().l2Flush, L2Flush::On);
    flush->setCurrentIndex(flush->findText("L2 flush: auto"));
    EXPECT_EQ(panel.runSettings().l2Flush, L2Flush::Auto);
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

TEST(Launch, OccupancyCountsRegistersPerWarpInUnitsOf256)
{
    DeviceLimits lim; // 64 Ki registers, 2048 threads per SM
    // 72 registers x 32 threads = 2304 per warp (a multiple of 256); 8 warps a block.
    EXPECT_EQ(Occupancy::registersPerBlock(256, 72, 32), 8u * 2304u);
    // 37 registers round up to 1280 per warp, not 1184.
    EXPECT_EQ(Occupancy::registersPerBlock(32, 37, 32), 1280u);
    const Occupancy o = Occupancy::compute(lim, 256, 0, 72);
    EXPECT_EQ(o.blocksPerSm, 3); // 65536 / 18432
    EXPECT_EQ(o.activeWarps, 24);
    EXPECT_EQ(o.limitedBy, "registers");
    EXPECT_DOUBLE_EQ(Occupancy::compute(lim, 256, 0, 32).fraction, 1.0);
}

namespace {
DeviceInfo gpu()
{
    DeviceInfo d;
    d.id = "cuda:0";
    d.name = "Test GPU";
    d.ccMajor = 9;
    return d;
}
} // namespace

TEST(Launch, RegistersFromThePtxasReportLimitTheBlock)
{
    LaunchPanel panel;
    panel.setDevices({gpu()});
    panel.setCurrentDevice("cuda:0");
    panel.setVariables({{"block", "1024"}});
    panel.setLaunch(launch("1", "block"), {});
    EXPECT_TRUE(panel.issues().isEmpty());

    // The real sm_90 report: heavy() uses 72 registers a thread.
    CompileResult r;
    r.ok = true;
    r.log = test::readTextFile(std::string(KW_TEST_DATA_DIR) + "/ptxas_reports/kernels_sm_90.log");
    panel.setCompileResult(r, "_Z5heavyPfi");
    EXPECT_TRUE(panel.resourcesText().contains("Registers: 72 per thread")) << panel.resourcesText().toStdString();
    // 1024 threads x 72 registers = 73,728 > 65,536: a GPU refuses the launch.
    ASSERT_FALSE(panel.issues().isEmpty());
    EXPECT_TRUE(anyContains(panel.issues(), "73,728 registers")) << panel.issues().join('\n').toStdString();
    EXPECT_FALSE(panel.block());

    panel.setVariables({{"block", "256"}});
    EXPECT_TRUE(panel.issues().isEmpty());
    EXPECT_TRUE(panel.resourcesText().contains("limited by registers")) << panel.resourcesText().toStdString();
    EXPECT_FALSE(panel.resourcesText().contains("registers not counted"));

    // The simulator has no register file: the same launch runs there, with a note.
    panel.setVariables({{"block", "1024"}});
    panel.setCurrentDevice("sim");
    EXPECT_TRUE(panel.issues().isEmpty()) << panel.issues().join('\n').toStdString();
    EXPECT_TRUE(panel.resourcesText().contains("On a GPU")) << panel.resourcesText().toStdString();

    // A PTX-only compile has no report: registers are not counted.
    panel.setCompileResult(CompileResult{}, "_Z5heavyPfi");
    EXPECT_TRUE(panel.resourcesText().contains("registers not counted"));
}
