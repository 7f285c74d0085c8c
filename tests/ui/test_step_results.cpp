// A document of steps run through a real `kwb-run serve` on the simulator, as a user runs
// it from the window: each step's runs and kernel time in the step list, a loop stopped at
// its limit and a failed check shown at their step, and the buffers after a chosen step in
// the results, checked against the same algorithm computed here.
#include "ArgumentsPanel.hpp"
#include "ChecksEditor.hpp"
#include "ErrorBanner.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "StepForm.hpp"
#include "StepListPanel.hpp"
#include "StepTree.hpp"
#include "VariablesTable.hpp"
#include "test_window_options.hpp"
#include "views/ResultsPanel.hpp"

#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <gtest/gtest.h>

using namespace kw;

namespace {

QString sample(const char* name) { return QString(KW_SAMPLES_DIR) + "/" + name; }

struct Window {
    MainWindow window{test::windowOptions()};
    StepListPanel& list = *window.stepList();
    bool ready = false;
    Window()
    {
        window.resize(1366, 768);
        window.show();
        QSignalSpy devices(window.runner(), &RunnerClient::devicesChanged);
        ready = devices.count() > 0 || devices.wait(20000);
    }
    bool open(const char* name)
    {
        if (!window.openDocument(sample(name)))
            return false;
        window.launchPanel()->setCurrentDevice("sim");
        return window.launchPanel()->currentDevice() == "sim";
    }
    std::optional<RunResult> run()
    {
        QSignalSpy ran(&window, &MainWindow::runCompleted);
        window.runAction()->trigger();
        if (!ran.wait(120000))
            return std::nullopt;
        auto* results = window.resultsPanel();
        EXPECT_TRUE(QTest::qWaitFor([&] { return !results->fillPending(); }, 5000));
        return ran.at(0).at(0).value<RunResult>();
    }
    void clickRow(const StepPath& path)
    {
        QTreeWidget* tree = list.tree();
        QTreeWidgetItem* item = list.itemAt(path);
        ASSERT_NE(item, nullptr);
        tree->scrollToItem(item);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
        ASSERT_EQ(list.selectedPath(), path) << StepTree::text(path);
    }
    QString cell(const StepPath& path, int column) const { return list.itemAt(path)->text(column); }
    // The buffer the results show, by name, as numbers.
    std::vector<double> shown(const std::string& name) const
    {
        const auto& r = window.resultsPanel()->result();
        std::vector<double> out;
        if (r)
            for (const BufferResult& b : r->buffers)
                if (b.name == name)
                    for (std::size_t i = 0; i < b.data.count(); ++i)
                        out.push_back(b.data.at(i));
        return out;
    }
};

void retype(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

} // namespace

TEST(StepResults, ALoopStoppedAtItsLimitIsShownAtItsStep)
{
    Window w;
    ASSERT_TRUE(w.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(w.open("bfs_grid.kwb"));
    w.clickRow({0});
    retype(w.list.form()->limitEdit(), "3");
    ASSERT_EQ(w.window.currentDocument().steps[0].limit, "3");
    EXPECT_EQ(w.cell({0}, StepListPanel::ColWhat), "search: repeat until changed(0) == 0, at most 3 passes");
    const auto r = w.run();
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->stopped.empty());
    EXPECT_EQ(w.cell({0}, StepListPanel::ColRuns), "3") << "three passes, the limit";
    EXPECT_EQ(w.list.selectedPath(), (StepPath{0})) << "the list opens at the step that stopped";
    EXPECT_TRUE(w.list.itemAt({0})->toolTip(StepListPanel::ColStep).contains("limit"))
        << w.list.itemAt({0})->toolTip(StepListPanel::ColStep).toStdString();
    EXPECT_EQ(w.cell({0, 1}, StepListPanel::ColRuns), "3");
}

TEST(StepResults, AFailedCheckOfAStepSelectsItAndTheTimingsAreThoseOfEachStep)
{
    Window w;
    ASSERT_TRUE(w.ready);
    ASSERT_TRUE(w.open("heat_diffusion.kwb"));
    // alpha 0.3: the explicit scheme is unstable, and the checks of the loop fail.
    auto* table = w.window.variablesTable()->findChild<QTableWidget*>();
    ASSERT_NE(table, nullptr);
    QTableWidgetItem* alpha = nullptr;
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 0)->text() == "alpha")
            alpha = table->item(row, 1);
    ASSERT_NE(alpha, nullptr);
    alpha->setText("0.3"); // as the table's cell editor commits it
    ASSERT_EQ(w.window.currentDocument().variables.back().second, "0.3");
    w.clickRow({0, 1});

    const auto r = w.run();
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->ok);
    EXPECT_EQ(w.list.selectedPath(), (StepPath{0})) << "the step whose checks failed";
    // The failed checks counted in words: "1 check failed", "2 checks failed".
    const QString tip = w.list.itemAt({0})->toolTip(StepListPanel::ColStep);
    EXPECT_TRUE(QRegularExpression("\\b(1 check|[02-9]\\d* checks|1\\d+ checks) failed").match(tip).hasMatch())
        << tip.toStdString();
    EXPECT_FALSE(tip.contains("(s)")) << tip.toStdString();
    EXPECT_EQ(w.cell({0}, StepListPanel::ColRuns), "200");
    EXPECT_EQ(w.cell({0, 0}, StepListPanel::ColRuns), "200");
    EXPECT_EQ(w.cell({0, 1}, StepListPanel::ColRuns), "200");
    EXPECT_EQ(w.cell({0, 0}, StepListPanel::ColShare), "100.0 %") << "the one launch has all the kernel time";
    EXPECT_FALSE(w.cell({0, 0}, StepListPanel::ColTime).isEmpty());
    EXPECT_TRUE(w.cell({0, 1}, StepListPanel::ColTime).isEmpty()) << "a swap runs no kernel";
    EXPECT_EQ(w.list.tree()->headerItem()->text(StepListPanel::ColTime).simplified(), "sim ms (CPU)")
        << "the simulator's times are the CPU's, and the column says so";

    // A step's check edited in the Checks tab: the steps' figures of the run stay.
    auto* dock = w.window.findChild<QDockWidget*>("checksDock");
    ASSERT_NE(dock, nullptr);
    dock->show();
    dock->raise();
    ChecksEditor* checks = w.window.checksEditor();
    checks->list()->setCurrentRow(0);
    ASSERT_EQ(checks->stepBox()->currentText(), "after step 1 (time steps)");
    retype(checks->relTolEdit(), "0.01");
    EXPECT_DOUBLE_EQ(w.window.currentDocument().steps[0].checks[0].relTol, 0.01);
    EXPECT_EQ(w.cell({0}, StepListPanel::ColRuns), "200");
    EXPECT_FALSE(w.cell({0, 0}, StepListPanel::ColTime).isEmpty());
}

namespace {
// Blelloch's scan of samples/scan_blelloch.kwb, on the host: the buffer after the up-sweep,
// after the root is cleared, and after the down-sweep.
struct HostScan {
    std::vector<double> upSweep, cleared, scanned;
    explicit HostScan(int levels)
    {
        const long long n = 1LL << levels;
        std::vector<long long> a(n);
        for (long long i = 0; i < n; ++i)
            a[i] = i % 4;
        for (int d = 0; d < levels; ++d) {
            const long long stride = 2LL << d;
            for (long long right = stride - 1; right < n; right += stride)
                a[right] += a[right - stride / 2];
        }
        upSweep.assign(a.begin(), a.end());
        a[n - 1] = 0;
        cleared.assign(a.begin(), a.end());
        for (int d = 0; d < levels; ++d) {
            const long long stride = 1LL << (levels - d);
            for (long long right = stride - 1; right < n; right += stride) {
                const long long left = a[right - stride / 2];
                a[right - stride / 2] = a[right];
                a[right] += left;
            }
        }
        scanned.assign(a.begin(), a.end());
    }
};
} // namespace

TEST(StepResults, ChoosingAStepShowsTheBuffersAfterItAndTheRunningStepIsMarked)
{
    Window w;
    ASSERT_TRUE(w.ready);
    ASSERT_TRUE(w.open("scan_blelloch.kwb"));
    // Each step the runner announces is the one marked in the list at that moment.
    int announced = 0, marked = 0;
    QObject::connect(w.window.runner(), &RunnerClient::stepStarted, &w.window, [&](const QString& path) {
        ++announced;
        const auto p = StepTree::parse(path.toStdString());
        if (QTreeWidgetItem* item = p ? w.list.itemAt(*p) : nullptr)
            marked += item->font(StepListPanel::ColStep).bold() ? 1 : 0;
    });
    const auto r = w.run();
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->ok) << (r->fault ? r->fault->message : r->stopped);
    EXPECT_GT(announced, 0);
    EXPECT_EQ(marked, announced);
    for (const StepPath& p : StepTree::all(w.list.steps()))
        EXPECT_FALSE(w.list.itemAt(p)->font(StepListPanel::ColStep).bold()) << "nothing runs any more";

    const HostScan host(12);
    ASSERT_EQ(w.shown("data"), host.scanned) << "the end of the run, before a step is chosen";
    ASSERT_EQ(w.list.selectedPath(), (StepPath{0})) << "selected since the document opened";
    w.clickRow({0}); // the selected step, chosen by a click all the same
    EXPECT_EQ(w.shown("data"), host.upSweep) << "after step 1, the up-sweep";
    EXPECT_EQ(w.cell({0}, StepListPanel::ColRuns), "12");
    w.clickRow({1});
    EXPECT_EQ(w.shown("data"), host.cleared) << "after step 2, the root cleared";
    w.clickRow({2, 0});
    EXPECT_EQ(w.shown("data"), host.scanned) << "after the last run of step 3.1";
    QTest::mouseClick(w.list.endOfRunButton(), Qt::LeftButton);
    EXPECT_EQ(w.shown("data"), host.scanned);
    EXPECT_FALSE(w.list.endOfRunButton()->isEnabled());
}

TEST(StepResults, AFaultSelectsTheStepThatFaultedAndTheBannerNamesIt)
{
    Window w;
    ASSERT_TRUE(w.ready);
    ASSERT_TRUE(w.open("heat_diffusion.kwb"));
    w.clickRow({0, 0});
    // The kernel told that the plate is 100 times wider than it is reads past its buffers.
    QLineEdit* width = nullptr;
    for (QLineEdit* e : w.window.argumentsPanel()->findChildren<QLineEdit*>())
        if (e->text() == "w")
            width = e;
    ASSERT_NE(width, nullptr);
    retype(width, "w * 100");
    ASSERT_EQ(w.window.currentDocument().steps[0].steps[0].args.at(2).value, "w * 100");
    w.clickRow({0, 1});

    const auto r = w.run();
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->fault.has_value());
    EXPECT_EQ(r->faultStep, "1.1");
    EXPECT_EQ(w.list.selectedPath(), (StepPath{0, 0})) << "the list opens at the step that faulted";
    EXPECT_TRUE(w.list.itemAt({0, 0})->toolTip(StepListPanel::ColStep).contains("faulted"));
    EXPECT_TRUE(w.window.banner()->title().startsWith("Step 1.1 (heat_step) failed"))
        << w.window.banner()->title().toStdString();
}
