#include "compile/PtxResources.hpp"
#include "launch/TimingStats.hpp"
#include "views/PtxHighlighter.hpp"
#include "views/PtxPanel.hpp"
#include "views/SweepPanel.hpp"
#include "views/TimingsPanel.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextLayout>

using namespace kw;

TEST(TimingStats, MedianQuartilesAndExtremes)
{
    const TimingStats s = TimingStats::compute({5, 1, 4, 2, 3});
    EXPECT_EQ(s.count, 5u);
    EXPECT_EQ(s.min, 1);
    EXPECT_EQ(s.max, 5);
    EXPECT_EQ(s.median, 3);
    EXPECT_EQ(s.q1, 2);
    EXPECT_EQ(s.q3, 4);
    EXPECT_EQ(s.mean, 3);
    const TimingStats even = TimingStats::compute({1, 2, 3, 4});
    EXPECT_DOUBLE_EQ(even.median, 2.5);
    EXPECT_DOUBLE_EQ(even.q1, 1.75); // numpy.percentile([1,2,3,4], 25)
}

namespace {
RunResult timedRun(double peak)
{
    RunResult r;
    r.device.name = peak > 0 ? "NVIDIA H200" : "CPU simulator";
    r.device.memoryBandwidthGBs = peak;
    r.timings.compileMs = 12;
    r.timings.moduleLoadMs = 0.8;
    r.timings.h2dMs = 2;
    r.timings.d2hMs = 3;
    r.timings.kernelMs = {1.10, 1.00, 1.30, 1.05, 1.20, 2.50};
    r.timings.bytesMoved = 3'000'000'000ull;
    return r;
}
} // namespace

TEST(TimingsPanel, ShowsMedianSpreadBreakdownAndBandwidth)
{
    test::app();
    TimingsPanel panel;
    panel.showResult(timedRun(4800));
    EXPECT_DOUBLE_EQ(panel.stats().median, 1.15);
    EXPECT_DOUBLE_EQ(panel.stats().max, 2.5);
    const QString text = panel.summary()->text();
    EXPECT_TRUE(text.contains("median 1.150 ms")) << text.toStdString();
    EXPECT_TRUE(text.contains("min 1.000 ms"));
    EXPECT_TRUE(text.contains("max 2.500 ms"));
    EXPECT_TRUE(text.contains("6 repeats"));
    // Each repeat is plotted, plus median, IQR and min/max lines.
    bool foundRepeats = false;
    for (int i = 0; i < panel.repeatPlot()->graphCount(); ++i)
        foundRepeats |= panel.repeatPlot()->graph(i)->dataCount() == 6;
    EXPECT_TRUE(foundRepeats);
    // Five phases in the breakdown.
    EXPECT_EQ(panel.breakdownPlot()->plottableCount(), 5);
    // 3 GB in 1.15 ms = 2608.7 GB/s, 54.3 % of 4800.
    EXPECT_TRUE(panel.bandwidthLabel()->text().contains("2608.7 GB/s")) << panel.bandwidthLabel()->text().toStdString();
    EXPECT_FALSE(panel.bandwidthBar()->isHidden());
    EXPECT_EQ(panel.bandwidthBar()->value(), 543);
}

TEST(TimingsPanel, HidesThePeakComparisonWhenThePeakIsUnknown)
{
    test::app();
    TimingsPanel panel;
    panel.showResult(timedRun(0));
    EXPECT_TRUE(panel.bandwidthBar()->isHidden());
    EXPECT_FALSE(panel.bandwidthLabel()->text().contains("peak"));
    EXPECT_TRUE(panel.bandwidthLabel()->text().contains("GB/s"));
}

// The simulator's times are the CPU's: labelled so, and no bandwidth or copy figures
// that would read as measurements of a GPU.
TEST(TimingsPanel, SimulatorTimesAreLabelledAndShowNoBandwidthOrCopies)
{
    test::app();
    TimingsPanel panel;
    RunResult r = timedRun(0);
    r.device.id = "sim";
    panel.showResult(r);
    EXPECT_TRUE(panel.summary()->text().contains("Simulator time")) << panel.summary()->text().toStdString();
    EXPECT_TRUE(panel.summary()->text().contains("not a GPU measurement"));
    EXPECT_FALSE(panel.bandwidthLabel()->text().contains("GB/s")) << panel.bandwidthLabel()->text().toStdString();
    EXPECT_TRUE(panel.bandwidthBar()->isHidden());
    EXPECT_TRUE(panel.repeatPlot()->yAxis->label().contains("simulator time"));
    // compile, module load and the simulation; no H2D or D2H.
    EXPECT_EQ(panel.breakdownPlot()->plottableCount(), 3);
    for (int i = 0; i < panel.breakdownPlot()->plottableCount(); ++i)
        EXPECT_FALSE(panel.breakdownPlot()->plottable(i)->name().contains("H2D"));
}

TEST(SweepPanel, EmitsTheRequestAndPlotsPoints)
{
    test::app();
    SweepPanel panel;
    QSignalSpy spy(&panel, &SweepPanel::sweepRequested);
    panel.valuesEdit()->setText("64:512, 1000");
    panel.runButton()->click();
    ASSERT_EQ(spy.count(), 1);
    const auto req = spy.at(0).at(0).value<SweepRequest>();
    EXPECT_EQ(req.kind, SweepRequest::BlockSize);
    EXPECT_EQ(req.values, (std::vector<std::string>{"64", "128", "256", "512", "1000"}));
    EXPECT_FALSE(panel.runButton()->isEnabled());
    panel.addPoint(64, 2.0);
    panel.addPoint(128, 1.5);
    panel.finish();
    EXPECT_TRUE(panel.runButton()->isEnabled());
    EXPECT_EQ(panel.plot()->graph(0)->dataCount(), 2);
    EXPECT_EQ(panel.pointsTable()->rowCount(), 2);

    panel.kindSelector()->setCurrentIndex(1);
    panel.nameEdit()->setText("TILE");
    panel.valuesEdit()->setText("8 16 32");
    panel.runButton()->click();
    ASSERT_EQ(spy.count(), 2);
    const auto macro = spy.at(1).at(0).value<SweepRequest>();
    EXPECT_EQ(macro.kind, SweepRequest::Macro);
    EXPECT_EQ(macro.name, "TILE");
    EXPECT_EQ(macro.values.size(), 3u);
    panel.finish();

    panel.kindSelector()->setCurrentIndex(0);
    panel.valuesEdit()->setText("32 2048"); // over the 1024 limit: refused
    panel.runButton()->click();
    EXPECT_EQ(spy.count(), 2);
}

namespace {
const char* samplePtx = R"(//
// Generated by NVIDIA NVVM Compiler
.version 8.5
.target sm_90
.address_size 64

.const .align 4 .b8 coeffs[64];
/* a block comment
   .shared .align 4 .b8 notCounted[999];
*/
	// .globl	_Z6reducePKfPfi
.visible .entry _Z6reducePKfPfi(
	.param .u64 _Z6reducePKfPfi_param_0,
	.param .u64 _Z6reducePKfPfi_param_1,
	.param .u32 _Z6reducePKfPfi_param_2
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<12>;
	.reg .f32 	%f<9>;
	.reg .b64 	%rd<7>;
	// demoted variable
	.shared .align 4 .b8 _ZZ6reducePKfPfiE4tile[1024];
	.local .align 8 .b8 __local_depot0[32];

	ld.param.u64 	%rd1, [_Z6reducePKfPfi_param_0];
	mov.u32 	%r1, %tid.x;
$L__BB0_1:
	ret;
}
.visible .entry scale(
	.param .u64 scale_param_0
)
{
	.reg .f64 	%fd<3>;
	.extern .shared .align 16 .b8 dyn[];
	ret;
}
)";
} // namespace

TEST(PtxResources, CountsRegistersAndMemoryPerEntry)
{
    const auto res = PtxResources::parse(samplePtx);
    ASSERT_EQ(res.size(), 3u);
    EXPECT_EQ(res[0].entry, "");
    EXPECT_EQ(res[0].constBytes, 64u);
    EXPECT_EQ(res[0].sharedBytes, 0u); // the commented-out one does not count
    EXPECT_EQ(res[1].entry, "_Z6reducePKfPfi");
    EXPECT_EQ(res[1].params, 3);
    EXPECT_EQ(res[1].registers.at(".pred"), 4);
    EXPECT_EQ(res[1].registers.at(".f32"), 9);
    EXPECT_EQ(res[1].registers32, 12 + 9 + 2 * 7);
    EXPECT_EQ(res[1].sharedBytes, 1024u);
    EXPECT_EQ(res[1].localBytes, 32u);
    EXPECT_FALSE(res[1].dynamicShared);
    EXPECT_EQ(res[2].entry, "scale");
    EXPECT_EQ(res[2].registers32, 6);
    EXPECT_TRUE(res[2].dynamicShared);
    EXPECT_EQ(res[2].sharedBytes, 0u);
}

TEST(PtxPanel, ShowsHighlightedPtxAndTheResourcesTable)
{
    test::app();
    CompileResult c;
    c.ok = true;
    c.arch = "sm_90";
    c.ptx = samplePtx;
    c.loweredNames["reduce"] = "_Z6reducePKfPfi";
    PtxPanel panel;
    panel.showCompile(c);
    EXPECT_TRUE(panel.text()->isReadOnly());
    ASSERT_EQ(panel.resourcesTable()->rowCount(), 3);
    EXPECT_EQ(panel.resourcesTable()->item(1, 0)->text(), "reduce");
    EXPECT_EQ(panel.resourcesTable()->item(1, PtxPanel::VirtualRegisters)->text(), "35");
    EXPECT_TRUE(panel.resourcesTable()->item(2, PtxPanel::Shared)->text().contains("dynamic"));
    // No ptxas report in a PTX-only compile: the allocated registers are not known.
    EXPECT_EQ(panel.resourcesTable()->item(1, PtxPanel::Registers)->text(), QString::fromUtf8("\u2013"));
    // A report (from the live check) fills them in for the entries it names.
    KernelResources reduce;
    reduce.entry = "_Z6reducePKfPfi";
    reduce.arch = "sm_90";
    reduce.registers = 18;
    reduce.spillStoreBytes = 8;
    panel.setPtxasReport({reduce});
    EXPECT_EQ(panel.resourcesTable()->item(1, PtxPanel::Registers)->text(), "18");
    EXPECT_EQ(panel.resourcesTable()->item(1, PtxPanel::Spills)->text(), "8 B / 0");
    EXPECT_EQ(panel.resourcesTable()->item(2, PtxPanel::Registers)->text(), QString::fromUtf8("\u2013"));

    // The highlighter coloured the directive, the register and the comment.
    const auto formatAt = [&](const QString& line, const QString& word) {
        for (QTextBlock b = panel.text()->document()->begin(); b.isValid(); b = b.next()) {
            if (!b.text().contains(line))
                continue;
            const int pos = int(b.text().indexOf(word));
            for (const QTextLayout::FormatRange& r : b.layout()->formats())
                if (pos >= r.start && pos < r.start + r.length)
                    return r.format.foreground().color();
        }
        return QColor();
    };
    const PtxHighlighter* h = panel.highlighter();
    // The kinds are told apart: a word coloured as the wrong kind must not pass.
    using K = PtxHighlighter::Kind;
    const std::vector<K> kinds{K::Directive, K::Type, K::Register, K::Number, K::Label, K::Comment, K::Instruction};
    for (std::size_t a = 0; a < kinds.size(); ++a) {
        ASSERT_TRUE(h->format(kinds[a]).foreground().color().isValid());
        for (std::size_t b = a + 1; b < kinds.size(); ++b)
            EXPECT_NE(h->format(kinds[a]).foreground().color(), h->format(kinds[b]).foreground().color())
                << "kinds " << a << " and " << b << " look the same";
    }
    EXPECT_EQ(formatAt("mov.u32", "mov.u32"), h->format(K::Instruction).foreground().color());
    EXPECT_EQ(formatAt(".reg .b32", ".reg"), h->format(PtxHighlighter::Kind::Directive).foreground().color());
    EXPECT_EQ(formatAt("mov.u32", "%tid.x"), h->format(PtxHighlighter::Kind::Register).foreground().color());
    EXPECT_EQ(formatAt("demoted variable", "demoted"), h->format(PtxHighlighter::Kind::Comment).foreground().color());
    EXPECT_EQ(formatAt("notCounted", "notCounted"), h->format(PtxHighlighter::Kind::Comment).foreground().color());
    EXPECT_EQ(formatAt(".reg .f32", ".f32"), h->format(PtxHighlighter::Kind::Type).foreground().color());
}

// A document of steps runs once: its time is every launch together, not a repeat.
TEST(TimingsPanel, ADocumentOfStepsShowsItsWholeTimeAndNoRepeats)
{
    test::app();
    TimingsPanel panel;
    RunResult r = timedRun(0);
    r.device.id = "sim";
    r.device.name = "CPU simulator";
    r.timings.kernelMs = {12.5};
    r.timings.medianMs = r.timings.minMs = r.timings.meanMs = 12.5;
    StepResult loop, launch, swap;
    loop.path = "1";
    loop.kind = "repeat";
    loop.runs = 200;
    launch.path = "1.1";
    launch.kind = "launch";
    launch.runs = 200;
    swap.path = "1.2";
    swap.kind = "swap";
    swap.runs = 200;
    r.steps = {loop, launch, swap};
    panel.showResult(r);
    const QString text = panel.summary()->text();
    EXPECT_TRUE(text.contains("every launch together")) << text.toStdString();
    EXPECT_TRUE(text.contains("200 launches on CPU simulator")) << text.toStdString();
    EXPECT_TRUE(text.contains("Steps list")) << text.toStdString();
    EXPECT_FALSE(text.contains("repeats")) << text.toStdString();
    EXPECT_EQ(panel.repeatPlot()->graphCount(), 0);
}

TEST(TimingsPanel, TheLegendsFitANarrowPanel)
{
    test::app();
    TimingsPanel panel;
    for (int width : {360, 900}) {
        SCOPED_TRACE(width);
        panel.resize(width, 600);
        panel.show();
        panel.showResult(timedRun(4800));
        QCoreApplication::processEvents();
        for (QCustomPlot* plot : {panel.breakdownPlot(), panel.repeatPlot()}) {
            plot->replot();
            QCPLegend* legend = plot->legend;
            int items = 0;
            for (int i = 0; i < legend->itemCount(); ++i) {
                if (!legend->item(i))
                    continue; // an empty cell of the wrapped grid
                ++items;
                const QRect r = legend->item(i)->outerRect();
                EXPECT_GE(r.left(), 0) << "legend item " << i << " is cut off on the left";
                EXPECT_LE(r.right(), plot->width()) << "legend item " << i << " is cut off on the right";
                EXPECT_LE(r.bottom(), plot->height()) << "legend item " << i << " is cut off below";
                EXPECT_GE(r.width(), legend->item(i)->minimumOuterSizeHint().width())
                    << "legend item " << i << " is narrower than its text";
            }
            EXPECT_GE(items, 3);
        }
        if (qEnvironmentVariableIsSet("KW_SHOT_DIR"))
            panel.grab().save(QStringLiteral("%1/timings-%2.png").arg(qEnvironmentVariable("KW_SHOT_DIR")).arg(width));
    }
}
