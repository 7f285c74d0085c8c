// The Profile view as a user meets it: a GPU run says where counters come from and
// offers the simulator; a profiled run fills the totals, the table, the findings and
// the memory-access picture of the recorded warp; the window wires the view to the
// editor, to Run > Profile per line and to a run on the simulator.
#include "CodeEditor.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "profile/AccessPicture.hpp"
#include "profile/FindingsList.hpp"
#include "profile/HeatLegend.hpp"
#include "profile/ProfileMargin.hpp"
#include "profile/ProfileTableModel.hpp"
#include "profile/ProfileView.hpp"
#include "qstring_printer.hpp"
#include "test_window_options.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QFrame>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using namespace kw;

namespace {
const QString source = QStringLiteral("__global__ void copy(const float* in, float* out)\n"  // 1
                                      "{\n"                                                  // 2
                                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" // 3
                                      "    out[i] = in[32 * i];\n"                           // 4
                                      "}\n");

// Two blocks of 64 threads: 4 warps, one strided load and one coalesced store each.
RunResult profiledRun()
{
    RunResult r;
    r.ok = true;
    r.device.id = "sim";
    r.device.name = "CPU simulator";
    r.grid = {2, 1, 1};
    r.block = {64, 1, 1};
    KernelProfile p;
    LineProfile l3{"kernel.cu", 3, {}, {}};
    l3.counters.inst_executed = 12;
    l3.counters.thread_inst_executed = 384;
    LineProfile l4{"kernel.cu", 4, {}, {}};
    l4.counters.inst_executed = 16;
    l4.counters.thread_inst_executed = 512;
    l4.counters.global_ld_requests = 4;
    l4.counters.global_ld_sectors = 128;
    l4.counters.global_st_requests = 4;
    l4.counters.global_st_sectors = 16;
    l4.extras.global_ld_ideal_sectors = 16;
    l4.extras.global_st_ideal_sectors = 16;
    p.lines = {l3, l4};
    for (const LineProfile& l : p.lines) {
        p.totals += l.counters;
        p.totalExtras += l.extras;
    }
    AccessSample s;
    s.instruction = "ld.global.f32";
    for (int i = 0; i < 32; ++i)
        s.lanes[i] = LaneAccess{true, 0x10000 + std::uint64_t(32 + i) * 128, 4}; // warp 1: i = 32..63
    p.samples = {s};
    r.profile = p;
    return r;
}

ProfileRequest captured(int line, Dim3 block, std::uint32_t warp)
{
    ProfileRequest q;
    q.enabled = true;
    q.capture = AccessCaptureRequest{{}, line, block, warp};
    return q;
}
} // namespace

TEST(ProfileView, AGpuRunSaysWhereCountersComeFromAndOffersTheSimulator)
{
    test::app();
    ProfileView view;
    view.show();
    RunResult r;
    r.device.id = "cuda:0";
    r.device.name = "NVIDIA H200";
    r.grid = {4, 1, 1};
    r.block = {128, 1, 1};
    view.showResult(r);
    EXPECT_TRUE(view.notice()->isVisible());
    EXPECT_TRUE(view.noticeText()->text().contains("NVIDIA H200")) << view.noticeText()->text();
    EXPECT_TRUE(view.noticeText()->text().contains("simulator"));
    EXPECT_EQ(view.profileButton()->text(), "Profile on the simulator");
    EXPECT_FALSE(view.hasProfile());
    EXPECT_EQ(view.model()->rowCount(), 0);

    QSignalSpy asked(&view, &ProfileView::profileRequested);
    view.profileButton()->click();
    ASSERT_EQ(asked.count(), 1);
    EXPECT_EQ(asked.at(0).at(0).toInt(), 0) << "no line to record yet";
    EXPECT_EQ(asked.at(0).at(1).value<Dim3>(), (Dim3{0, 0, 0}));
    EXPECT_EQ(asked.at(0).at(2).toUInt(), 0u);

    // A simulator run that was not profiled says so too, with the same button.
    r.device.id = "sim";
    view.showResult(r);
    EXPECT_TRUE(view.notice()->isVisible());
    EXPECT_TRUE(view.noticeText()->text().contains("not profiled"));
    // And a profiled one hides it.
    view.showResult(profiledRun());
    EXPECT_FALSE(view.notice()->isVisible());
}

TEST(ProfileView, AProfiledRunFillsTotalsTableAndPicture)
{
    test::app();
    ProfileView view;
    view.resize(1000, 420);
    view.show();
    view.setSource(source, "kernel.cu");
    view.showResult(profiledRun(), captured(4, {0, 0, 0}, 1));
    ASSERT_TRUE(view.hasProfile());
    EXPECT_TRUE(view.totalsLabel()->text().contains("28 warp instructions")) << view.totalsLabel()->text();
    EXPECT_TRUE(view.totalsLabel()->text().contains("8 requests, 144 sectors"));
    // Cost: line 4 is 16 + 144 = 160, line 3 is 12.
    ASSERT_EQ(view.proxy()->rowCount(), 2);
    EXPECT_EQ(view.proxy()->index(0, ProfileTableModel::LocationColumn).data().toString(), "4");
    EXPECT_EQ(view.proxy()->index(0, ProfileTableModel::MetricColumn).data().toString(), "160");
    EXPECT_EQ(view.proxy()->index(0, ProfileTableModel::SourceColumn).data().toString(), "out[i] = in[32 * i];");
    EXPECT_EQ(view.proxy()->index(0, ProfileTableModel::SectorsPerRequestColumn).data().toString(), "18.0 (ideal 4.0)");
    EXPECT_EQ(view.legend()->maximum(), 160u);

    // Only line 4 touches memory: the chooser offers it, and shows its recorded warp.
    ASSERT_EQ(view.lineChooser()->count(), 1);
    EXPECT_EQ(view.lineChooser()->currentData().toInt(), 4);
    EXPECT_EQ(view.warpChooser()->value(), 1);
    EXPECT_EQ(view.warpChooser()->maximum(), 1) << "64 threads are two warps";
    ASSERT_TRUE(view.picture()->hasSample());
    const AccessLayout l = view.picture()->layout(1000);
    EXPECT_EQ(l.sectorCount(), 32);
    EXPECT_TRUE(l.titleText.startsWith("Line 4: out[i] = in[32 * i];")) << l.titleText;
    EXPECT_TRUE(l.subtitleText.contains("block (0, 0, 0), warp 1")) << l.subtitleText;

    // Another warp was not recorded: the view says how to get it, and asks for it.
    view.warpChooser()->setValue(0);
    EXPECT_FALSE(view.picture()->hasSample());
    EXPECT_TRUE(view.picture()->message().contains("warp 0")) << view.picture()->message();
    QSignalSpy asked(&view, &ProfileView::profileRequested);
    view.recordButton()->click();
    ASSERT_EQ(asked.count(), 1);
    EXPECT_EQ(asked.at(0).at(0).toInt(), 4);
    EXPECT_EQ(asked.at(0).at(2).toUInt(), 0u);
    view.warpChooser()->setValue(1);
    EXPECT_TRUE(view.picture()->hasSample());
}

TEST(ProfileView, RowsFindingsAndTheCounterChooserSpeakUp)
{
    test::app();
    ProfileView view;
    view.show();
    view.setSource(source, "kernel.cu");
    view.showResult(profiledRun());

    QSignalSpy lines(&view, &ProfileView::lineActivated);
    const QModelIndex first = view.proxy()->index(0, ProfileTableModel::SourceColumn);
    QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, view.table()->visualRect(first).center());
    ASSERT_GE(lines.count(), 1);
    EXPECT_EQ(lines.at(0).at(0).toInt(), 4);

    view.setFindings(
        {{ProfileFinding::Kind::GlobalLoad, "kernel.cu", 4, 0.5, "Each lane reads its own sector: 8× the traffic."},
         {ProfileFinding::Kind::Divergence, "", 0, 0.1, "Whole kernel."}});
    EXPECT_EQ(view.findings()->findingCount(), 2);
    EXPECT_EQ(view.findings()->item(0)->text(), "Line 4 — Each lane reads its own sector: 8× the traffic.");
    lines.clear();
    QListWidget* list = view.findings();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
    ASSERT_GE(lines.count(), 1);
    EXPECT_EQ(lines.at(0).at(0).toInt(), 4);

    QSignalSpy metric(&view, &ProfileView::metricChanged);
    view.setMetric(ProfileMetric::Instructions);
    ASSERT_EQ(metric.count(), 1);
    EXPECT_EQ(metric.at(0).at(0).value<ProfileMetric>(), ProfileMetric::Instructions);
    EXPECT_EQ(view.legend()->maximum(), 16u);
    EXPECT_EQ(view.proxy()->headerData(ProfileTableModel::MetricColumn, Qt::Horizontal).toString(), "Instructions");

    view.clear();
    EXPECT_FALSE(view.hasProfile());
    EXPECT_EQ(view.model()->rowCount(), 0);
    EXPECT_FALSE(view.picture()->hasSample());
}

TEST(ProfileView, TheWindowWiresProfilingAndTheMarginToTheView)
{
    test::app();
    MainWindow window(test::windowOptions());
    window.resize(1366, 768);
    window.show();
    QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
    ASSERT_TRUE(devices.count() > 0 || devices.wait(20000)) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(window.profileView());
    ASSERT_TRUE(window.profileAction());
    EXPECT_FALSE(window.profileAction()->isCheckable()) << "Profile runs; it is no switch for the next run";
    EXPECT_TRUE(window.profileRequest().enabled);
    EXPECT_FALSE(window.profileRequest().capture) << "no lanes asked for yet";

    // A row of the view moves the editor there; the margin and the view share a counter.
    window.editor()->setText(source + "\n\n\n");
    window.profileView()->setSource(window.editor()->text(), "kernel.cu");
    window.profileView()->showResult(profiledRun());
    window.profileMargin()->setProfile(*profiledRun().profile, "kernel.cu");
    emit window.profileView()->lineActivated(4);
    int line = 0, index = 0;
    window.editor()->getCursorPosition(&line, &index);
    EXPECT_EQ(line, 3);
    window.profileView()->setMetric(ProfileMetric::GlobalSectors);
    EXPECT_EQ(window.profileMargin()->metric(), ProfileMetric::GlobalSectors);
    EXPECT_FALSE(window.profileMargin()->colourOf(3).isValid()) << "line 3 moves no sector";
    EXPECT_TRUE(window.profileMargin()->colourOf(4).isValid());

    // "Profile on the simulator": one run on the simulator, asked to count, whose
    // result the view shows: its counters, or that the runner sent none back.
    ASSERT_TRUE(window.openDocument(QString(KW_SAMPLES_DIR) + "/add_vectors_small.kwb"));
    EXPECT_FALSE(window.profileView()->hasProfile()) << "a new document clears the view";
    QSignalSpy ran(&window, &MainWindow::runCompleted);
    emit window.profileView()->profileRequested(5, Dim3{0, 0, 0}, 0);
    ASSERT_TRUE(ran.wait(120000));
    const RunResult r = ran.at(0).at(0).value<RunResult>();
    EXPECT_EQ(r.device.id, "sim");
    ASSERT_TRUE(window.profileRequest().capture) << "the lanes asked for stay asked for";
    EXPECT_EQ(window.profileRequest().capture->line, 5);
    EXPECT_EQ(window.profileView()->hasProfile(), r.profile.has_value());
    if (!r.profile) {
        EXPECT_TRUE(window.profileView()->notice()->isVisible());
        EXPECT_TRUE(window.profileView()->noticeText()->text().contains("no per-line counters"))
            << window.profileView()->noticeText()->text();
    }
}

TEST(ProfileView, AProfileOfSeveralStepsSaysWhichStepsRanEachLine)
{
    test::app();
    ProfileView view;
    view.resize(1000, 420);
    view.show();
    view.setSource(source, "kernel.cu");
    // One launch: no Steps column.
    view.showResult(profiledRun(), captured(4, {0, 0, 0}, 1));
    EXPECT_TRUE(view.table()->isColumnHidden(ProfileTableModel::StepsColumn));

    // A document of steps: line 3 ran in step 1 alone, line 4 in steps 2.1 and 1.
    RunResult steps = profiledRun();
    steps.profile->lines[0].steps = {"1"};
    steps.profile->lines[1].steps = {"2.1", "1"};
    view.showResult(steps, captured(4, {0, 0, 0}, 1));
    EXPECT_FALSE(view.table()->isColumnHidden(ProfileTableModel::StepsColumn));
    EXPECT_EQ(view.proxy()->headerData(ProfileTableModel::StepsColumn, Qt::Horizontal).toString(), "Steps");
    ASSERT_EQ(view.proxy()->rowCount(), 2);
    for (int row = 0; row < 2; ++row) {
        const int line = view.proxy()->index(row, ProfileTableModel::LocationColumn).data().toInt();
        EXPECT_EQ(view.proxy()->index(row, ProfileTableModel::StepsColumn).data().toString(),
                  line == 3 ? "1" : "2.1, 1");
    }
}
