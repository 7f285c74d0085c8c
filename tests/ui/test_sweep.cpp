// Sweeps through a real `kwb-run serve` on the sim device: one point per value,
// each with a measured time; a value that fails is reported on its own and the
// other points still arrive.
#include "RunnerClient.hpp"
#include "SweepRunner.hpp"
#include "views/SweepPanel.hpp"

#include "doc/DocumentReader.hpp"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <map>

using namespace kw;

namespace {

constexpr int sweepTimeoutMs = 240000;

struct Sweep {
    RunnerClient client;
    SweepPanel panel;
    SweepRunner runner{&client, &panel};
    Document doc;
    bool ready = false;
    bool sim = false;

    explicit Sweep(const Document& d)
        : doc(d)
    {
        client.setProgram(QString(KW_BIN_DIR) + "/kwb-run");
        QSignalSpy devices(&client, &RunnerClient::devicesChanged);
        client.start();
        ready = devices.wait(20000) || devices.count() > 0;
        for (const DeviceInfo& info : client.devices())
            sim = sim || info.id == "sim";
        // As the main window does: the panel asks, the runner runs on the document.
        QObject::connect(&panel, &SweepPanel::sweepRequested, &runner,
                         [this](const SweepRequest& r) { runner.start(doc, r, "sim"); });
    }
    ~Sweep() { client.shutdown(); }

    void request(SweepRequest::Kind kind, const QString& values, const QString& macro = {})
    {
        panel.kindSelector()->setCurrentIndex(panel.kindSelector()->findData(int(kind)));
        panel.nameEdit()->setText(macro);
        panel.valuesEdit()->setText(values);
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
    }
    bool finished()
    {
        return QTest::qWaitFor([this] { return !panel.isRunning(); }, sweepTimeoutMs);
    }
    // Parameter -> median time, from the panel's table.
    std::map<double, double> points() const
    {
        std::map<double, double> out;
        QTableWidget* t = panel.pointsTable();
        for (int row = 0; row < t->rowCount(); ++row)
            out[t->item(row, 0)->text().toDouble()] = t->item(row, 1)->text().toDouble();
        return out;
    }
    QString status() const { return panel.statusLabel()->text(); }
};

Document sample(const char* name) { return DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/" + name); }

// add_vectors_small with its sum scaled by a macro whose value a static_assert limits.
Document scaledSample()
{
    Document d = sample("add_vectors_small.kwb");
    d.source = "static_assert(SCALE < 3, \"SCALE must stay below 3\");\n"
               "__global__ void add_vectors(float *a, float *b, float *c, int n)\n"
               "{\n"
               "    int idx = threadIdx.x + blockIdx.x * blockDim.x;\n"
               "    if (idx < n)\n"
               "        c[idx] = SCALE * (a[idx] + b[idx]);\n"
               "}\n";
    d.checks.clear(); // the result depends on SCALE; the sweep measures time, not values
    return d;
}

} // namespace

TEST(Sweep, PointDocumentSetsTheBlockVariableOrTheMacro)
{
    const Document base = sample("add_vectors_small.kwb");
    SweepRequest blocks{SweepRequest::BlockSize, "", {"64"}};
    const Document b = SweepRunner::pointDocument(base, blocks, "64");
    bool found = false;
    for (const auto& [name, value] : b.variables)
        if (name == "block") {
            EXPECT_EQ(value, "64");
            found = true;
        }
    EXPECT_TRUE(found) << "the sample's block variable drives block and grid";
    EXPECT_EQ(b.launch.block[0], base.launch.block[0]);

    SweepRequest macro{SweepRequest::Macro, "SCALE", {"2"}};
    const Document m = SweepRunner::pointDocument(base, macro, "2");
    ASSERT_EQ(m.options.defines.size(), base.options.defines.size() + 1);
    EXPECT_EQ(m.options.defines.back(), (std::pair<std::string, std::string>{"SCALE", "2"}));
    // A macro already defined gets the new value instead of a second definition.
    const Document again = SweepRunner::pointDocument(m, macro, "4");
    EXPECT_EQ(again.options.defines.size(), m.options.defines.size());
    EXPECT_EQ(again.options.defines.back().second, "4");
}

TEST(Sweep, AVariableSweepSetsThatVariableOnly)
{
    const Document base = sample("add_vectors_small.kwb");
    SweepRequest size{SweepRequest::Variable, "n", {"1000"}};
    EXPECT_TRUE(SweepRunner::problem(base, size).isEmpty());
    const Document d = SweepRunner::pointDocument(base, size, "1000");
    ASSERT_EQ(d.variables.size(), base.variables.size());
    for (std::size_t i = 0; i < d.variables.size(); ++i)
        EXPECT_EQ(d.variables[i].second, d.variables[i].first == "n" ? "1000" : base.variables[i].second);
    EXPECT_EQ(d.launch.grid, base.launch.grid); // the expressions stay; the variable moves them

    SweepRequest missing{SweepRequest::Variable, "size", {"8"}};
    const QString why = SweepRunner::problem(base, missing);
    EXPECT_TRUE(why.contains("no variable named \"size\"")) << why.toStdString();
    EXPECT_TRUE(why.contains("n, block")) << "names the variables there are: " << why.toStdString();
}

TEST(Sweep, ProblemSizesGiveOneTimedPointEach)
{
    // n drives the buffers' counts, the grid and the check: every point is a whole
    // run, and a point whose check failed would be reported, not plotted.
    Sweep s(sample("add_vectors_small.kwb"));
    ASSERT_TRUE(s.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(s.sim) << "kwb-run always offers the sim device";
    QSignalSpy failed(&s.runner, &SweepRunner::pointFailed);
    s.request(SweepRequest::Variable, "100 1000 10000", "n");
    EXPECT_EQ(s.panel.plot()->xAxis->label(), "n") << "the axis names the variable";
    ASSERT_TRUE(s.finished());
    for (const QList<QVariant>& f : failed)
        ADD_FAILURE() << "point " << f.at(0).toString().toStdString()
                      << " failed: " << f.at(1).toString().toStdString();
    const auto points = s.points();
    ASSERT_EQ(points.size(), 3u);
    for (double n : {100.0, 1000.0, 10000.0}) {
        ASSERT_TRUE(points.count(n)) << "no point for n = " << n;
        EXPECT_GT(points.at(n), 0.0);
    }
}

TEST(Sweep, BlockSizesGiveOneTimedPointEach)
{
    Sweep s(sample("add_vectors_small.kwb"));
    ASSERT_TRUE(s.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(s.sim) << "kwb-run always offers the sim device";
    QSignalSpy failed(&s.runner, &SweepRunner::pointFailed);
    s.request(SweepRequest::BlockSize, "32, 64 128");
    EXPECT_TRUE(s.panel.isRunning());
    EXPECT_FALSE(s.panel.runButton()->isEnabled()) << "one sweep at a time";
    ASSERT_TRUE(s.finished());
    for (const QList<QVariant>& f : failed)
        ADD_FAILURE() << "point " << f.at(0).toString().toStdString()
                      << " failed: " << f.at(1).toString().toStdString();
    const auto points = s.points();
    ASSERT_EQ(points.size(), 3u);
    for (double block : {32.0, 64.0, 128.0}) {
        ASSERT_TRUE(points.count(block)) << "no point for block size " << block;
        EXPECT_GT(points.at(block), 0.0) << "block size " << block;
    }
    EXPECT_EQ(s.panel.plot()->graph(0)->dataCount(), 3);
    EXPECT_TRUE(s.panel.runButton()->isEnabled());
    EXPECT_TRUE(s.status().startsWith("Done: 3 of 3 points")) << s.status().toStdString();
}

TEST(Sweep, MacroValuesGiveOneTimedPointEach)
{
    Sweep s(scaledSample());
    ASSERT_TRUE(s.ready);
    ASSERT_TRUE(s.sim) << "kwb-run always offers the sim device";
    QSignalSpy failed(&s.runner, &SweepRunner::pointFailed);
    s.request(SweepRequest::Macro, "0 1 2", "SCALE");
    ASSERT_TRUE(s.finished());
    EXPECT_TRUE(failed.isEmpty()) << (failed.isEmpty() ? "" : failed.at(0).at(1).toString().toStdString());
    const auto points = s.points();
    ASSERT_EQ(points.size(), 3u);
    for (double v : {0.0, 1.0, 2.0}) {
        ASSERT_TRUE(points.count(v)) << "no point for SCALE=" << v;
        EXPECT_GT(points.at(v), 0.0);
    }
}

TEST(Sweep, AMacroValueThatDoesNotCompileFailsAloneAndSaysWhy)
{
    Sweep s(scaledSample());
    ASSERT_TRUE(s.ready);
    ASSERT_TRUE(s.sim) << "kwb-run always offers the sim device";
    QSignalSpy failed(&s.runner, &SweepRunner::pointFailed);
    s.request(SweepRequest::Macro, "1 4 2", "SCALE");
    ASSERT_TRUE(s.finished());
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(failed.at(0).at(0).toString(), "4");
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("SCALE must stay below 3"))
        << failed.at(0).at(1).toString().toStdString();
    const auto points = s.points();
    EXPECT_EQ(points.size(), 2u);
    EXPECT_TRUE(points.count(1.0) && points.count(2.0)) << "the values around the failing one still ran";
    EXPECT_TRUE(s.status().startsWith("Done: 2 of 3 points")) << s.status().toStdString();
}

TEST(Sweep, ABlockSizeOverTheLimitIsRefusedBeforeAnyJob)
{
    Sweep s(sample("add_vectors_small.kwb"));
    QSignalSpy requested(&s.panel, &SweepPanel::sweepRequested);
    s.request(SweepRequest::BlockSize, "32 2048");
    EXPECT_TRUE(requested.isEmpty());
    EXPECT_FALSE(s.panel.isRunning());
    EXPECT_TRUE(s.status().contains("2048")) << s.status().toStdString();
}

TEST(Sweep, ABlockSizeTheDeviceRefusesFailsAloneAtRunTime)
{
    // The panel stops sizes over 1024 itself; a request from elsewhere reaches the
    // runner, whose limit check must fail that point only.
    Sweep s(sample("add_vectors_small.kwb"));
    ASSERT_TRUE(s.ready);
    ASSERT_TRUE(s.sim) << "kwb-run always offers the sim device";
    QSignalSpy failed(&s.runner, &SweepRunner::pointFailed);
    s.runner.start(s.doc, SweepRequest{SweepRequest::BlockSize, "", {"64", "4096", "128"}}, "sim");
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return s.panel.pointsTable()->rowCount() + failed.count() >= 3; }, sweepTimeoutMs));
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(failed.at(0).at(0).toString(), "4096");
    EXPECT_FALSE(failed.at(0).at(1).toString().isEmpty());
    const auto points = s.points();
    EXPECT_EQ(points.size(), 2u);
    EXPECT_TRUE(points.count(64.0) && points.count(128.0));
}

TEST(Sweep, APointWhoseCheckFailsIsReportedNotPlotted)
{
    // matmul's shared tiles are TILE x TILE (a macro); sweeping only the launch's
    // tile variable computes the wrong product for every tile but 16.
    Sweep s(sample("matmul.kwb"));
    ASSERT_TRUE(s.ready) << "kwb-run serve did not answer hello";
    ASSERT_TRUE(s.sim) << "kwb-run always offers the sim device";
    QSignalSpy failed(&s.runner, &SweepRunner::pointFailed);
    s.request(SweepRequest::Variable, "8 16", "tile");
    ASSERT_TRUE(s.finished());
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(failed.at(0).at(0).toString(), "8");
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("check on C failed"))
        << failed.at(0).at(1).toString().toStdString();
    const auto points = s.points();
    EXPECT_EQ(points.size(), 1u);
    EXPECT_TRUE(points.count(16.0));
}

TEST(Sweep, SimulatorTimesAreCalledSoAndNamedFastestNowhere)
{
    Sweep s(sample("add_vectors_small.kwb"));
    ASSERT_TRUE(s.ready) << "kwb-run serve did not answer hello";
    s.panel.setSimulated(true); // as the window does for a sweep on the simulator
    s.request(SweepRequest::BlockSize, "32 64");
    ASSERT_TRUE(s.finished());
    ASSERT_EQ(s.points().size(), 2u);
    EXPECT_TRUE(s.status().startsWith("Done: 2 of 2 points")) << s.status().toStdString();
    EXPECT_TRUE(s.status().contains("Simulator times (CPU)")) << s.status().toStdString();
    EXPECT_FALSE(s.status().contains("fastest at")) << s.status().toStdString();
    EXPECT_EQ(s.panel.pointsTable()->horizontalHeaderItem(1)->text(), "Simulator median (ms)");
    EXPECT_EQ(s.panel.plot()->yAxis->label(), "median simulator time (ms, CPU)");
    for (int row = 0; row < 2; ++row)
        EXPECT_EQ(s.panel.pointsTable()->item(row, 1)->background(), QBrush()) << "no point marked best";
}
