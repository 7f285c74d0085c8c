// The Profile view's lines: the counters and ratios the table shows for a profile
// built by hand, the order it sorts them in, and the editor margin's colours.
#include "CodeEditor.hpp"
#include "profile/HeatScale.hpp"
#include "profile/ProfileMargin.hpp"
#include "profile/ProfileMetric.hpp"
#include "profile/ProfileSummary.hpp"
#include "profile/ProfileTableModel.hpp"
#include "run/ProfileRatios.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>

#include <QHelpEvent>
#include <QSortFilterProxyModel>
#include <QToolTip>

using namespace kw;

namespace {
const QString source = QStringLiteral("__global__ void k(const float* in, float* out, int n)\n" // 1
                                      "{\n"                                                     // 2
                                      "    __shared__ float s[32 * 32];\n"                      // 3
                                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"    // 4
                                      "    float a = in[i];\n"                                  // 5
                                      "    // strided\n"                                        // 6
                                      "    float b = in[i * 32];\n"                             // 7
                                      "    s[threadIdx.x * 32] = a;\n"                          // 8
                                      "    float c = s[threadIdx.x * 32];\n"                    // 9
                                      "    if (threadIdx.x % 3 == 0)\n"                         // 10
                                      "        out[i] = a + b + c;\n"                           // 11
                                      "}\n");                                                   // 12

// Eight warps of one block. Line 5: 32 lanes × 4 bytes, one request per warp, 4
// sectors each. Line 7: 128 bytes apart, 32 sectors per request where 4 would do.
// Line 9: all lanes in bank 0, 32 wavefronts per request. Line 10: 10 branches,
// 4 of them divergent.
KernelProfile handBuilt()
{
    KernelProfile p;
    LineProfile l5{"kernel.cu", 5, {}, {}};
    l5.counters.inst_executed = 10;
    l5.counters.thread_inst_executed = 320;
    l5.counters.global_ld_requests = 8;
    l5.counters.global_ld_sectors = 32;
    l5.extras.global_ld_ideal_sectors = 32;
    LineProfile l7{"kernel.cu", 7, {}, {}};
    l7.counters.inst_executed = 4;
    l7.counters.thread_inst_executed = 128;
    l7.counters.global_ld_requests = 4;
    l7.counters.global_ld_sectors = 128;
    l7.extras.global_ld_ideal_sectors = 16;
    l7.extras.global_stride_bytes = 128;
    LineProfile l9{"kernel.cu", 9, {}, {}};
    l9.counters.inst_executed = 6;
    l9.counters.thread_inst_executed = 192;
    l9.counters.shared_ld_requests = 2;
    l9.counters.shared_ld_wavefronts = 64;
    l9.extras.shared_ideal_wavefronts = 2;
    l9.extras.worst_bank_conflict = 32;
    LineProfile l10{"kernel.cu", 10, {}, {}};
    l10.counters.inst_executed = 20;
    l10.counters.thread_inst_executed = 500;
    l10.counters.divergent_branches = 4;
    l10.extras.branches = 10;
    LineProfile header{"include/helpers.cuh", 7, {}, {}}; // same line number, another file
    header.counters.inst_executed = 1000;
    p.lines = {l5, l7, l9, l10, header};
    for (const LineProfile& l : p.lines) {
        p.totals += l.counters;
        p.totalExtras += l.extras;
    }
    return p;
}

// What Scintilla holds for a 0-based line of the margin: its text, and the paper of its style.
QString marginText(CodeEditor& e, int line)
{
    const long n = e.SendScintilla(QsciScintilla::SCI_MARGINGETTEXT, (unsigned long)line, (long)0);
    if (n <= 0)
        return {};
    QByteArray buf(int(n) + 1, '\0');
    e.SendScintilla(QsciScintilla::SCI_MARGINGETTEXT, (unsigned long)line, buf.data());
    return QString::fromUtf8(buf.constData());
}

QColor marginPaper(CodeEditor& e, int line)
{
    const long style = e.SendScintilla(QsciScintilla::SCI_MARGINGETSTYLE, (unsigned long)line, (long)0);
    const long bgr = e.SendScintilla(QsciScintilla::SCI_STYLEGETBACK, (unsigned long)style, (long)0);
    return QColor(int(bgr & 0xff), int((bgr >> 8) & 0xff), int((bgr >> 16) & 0xff));
}

std::vector<int> linesInOrder(const QSortFilterProxyModel& proxy)
{
    std::vector<int> out;
    for (int r = 0; r < proxy.rowCount(); ++r)
        out.push_back(proxy.index(r, 0).data(ProfileTableModel::LineRole).toInt());
    return out;
}

QString cell(const QAbstractItemModel& m, int line, int column)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, 0).data(ProfileTableModel::LineRole).toInt() == line
            && !m.index(r, ProfileTableModel::LocationColumn).data().toString().contains("helpers"))
            return m.index(r, column).data().toString();
    return QStringLiteral("<no line %1>").arg(line);
}
} // namespace

TEST(ProfileMetric, CostAndCountersOfAHandBuiltLine)
{
    const KernelProfile p = handBuilt();
    const LineProfile& l7 = p.lines[1];
    EXPECT_EQ(ProfileMetrics::value(ProfileMetric::Cost, l7), 4u + 128u);
    EXPECT_EQ(ProfileMetrics::value(ProfileMetric::GlobalSectors, l7), 128u);
    EXPECT_EQ(ProfileMetrics::value(ProfileMetric::ExcessSectors, l7), 128u - 16u);
    const LineProfile& l9 = p.lines[2];
    EXPECT_EQ(ProfileMetrics::value(ProfileMetric::Cost, l9), 6u + 64u);
    EXPECT_EQ(ProfileMetrics::value(ProfileMetric::BankConflicts, l9), 64u - 2u);
    EXPECT_EQ(*ProfileRatios::conflictWays(l9.counters, l9.extras), 32.0);
    EXPECT_EQ(*ProfileRatios::sectorsPerRequest(l7.counters), 32.0);
    EXPECT_EQ(*ProfileRatios::idealSectorsPerRequest(l7.counters, l7.extras), 4.0);
    EXPECT_DOUBLE_EQ(*ProfileRatios::branchEfficiency(p.lines[3].counters, p.lines[3].extras), 0.6);
    EXPECT_FALSE(ProfileRatios::branchEfficiency(l7.counters, l7.extras)) << "no branch, no efficiency";
    EXPECT_EQ(ProfileMetrics::maximum(ProfileMetric::Instructions, p.lines), 1000u);
}

TEST(ProfileSummary, CompactNumbersFitTheMargin)
{
    EXPECT_EQ(ProfileSummary::compact(950), "950");
    EXPECT_EQ(ProfileSummary::compact(9999), "9999");
    EXPECT_EQ(ProfileSummary::compact(12'345), "12k");
    EXPECT_EQ(ProfileSummary::compact(1'234'567), "1.2M");
    EXPECT_EQ(ProfileSummary::compact(999'999), "1.0M");
    EXPECT_EQ(ProfileSummary::percent(0.6), "60 %");
    EXPECT_EQ(ProfileSummary::percent(1.0), "100 %");
    EXPECT_EQ(ProfileSummary::percent(1.0 - 125.0 / 224256.0), "99.9 %")
        << "a few divergent branches do not round away";
    EXPECT_EQ(ProfileSummary::percent(std::nullopt), "");
    for (std::uint64_t v : {0ull, 99'999ull, 123'456'789ull, ~0ull})
        EXPECT_LE(ProfileSummary::compact(v).size(), 5) << v;
}

TEST(ProfileTable, SortsByCostAndShowsTheDerivedColumns)
{
    test::app();
    ProfileTableModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ProfileTableModel::SortRole);
    model.setProfile(handBuilt().lines, ProfileSource(source, "kernel.cu"));
    ASSERT_EQ(model.rowCount(), 5);
    proxy.sort(ProfileTableModel::MetricColumn, Qt::DescendingOrder);
    // Cost: header line 1000, line 7 132, line 9 70, line 5 42, line 10 20.
    EXPECT_EQ(linesInOrder(proxy), (std::vector<int>{7, 7, 9, 5, 10}));
    EXPECT_EQ(proxy.index(0, ProfileTableModel::LocationColumn).data().toString(), "helpers.cuh:7");
    EXPECT_EQ(proxy.index(1, ProfileTableModel::MetricColumn).data().toString(), "132");

    EXPECT_EQ(cell(model, 7, ProfileTableModel::SourceColumn), "float b = in[i * 32];");
    EXPECT_EQ(cell(model, 7, ProfileTableModel::SectorsPerRequestColumn), "32.0 (ideal 4.0)");
    EXPECT_EQ(cell(model, 5, ProfileTableModel::SectorsPerRequestColumn), "4.0 (ideal 4.0)");
    EXPECT_EQ(cell(model, 9, ProfileTableModel::ConflictWaysColumn), "32.0-way");
    EXPECT_EQ(cell(model, 10, ProfileTableModel::BranchEfficiencyColumn), "60 %");
    EXPECT_EQ(cell(model, 10, ProfileTableModel::ActiveLanesColumn), "25.0");
    EXPECT_EQ(cell(model, 10, ProfileTableModel::SectorsPerRequestColumn), "") << "no request, no ratio";
    // The header's line is not the editor's: no source text for it.
    EXPECT_EQ(proxy.index(0, ProfileTableModel::SourceColumn).data().toString(), "");

    // Another counter: the column follows it, and so does the order.
    model.setMetric(ProfileMetric::SharedWavefronts);
    EXPECT_EQ(model.headerData(ProfileTableModel::MetricColumn, Qt::Horizontal).toString(), "Shared wavefronts");
    proxy.sort(ProfileTableModel::MetricColumn, Qt::DescendingOrder);
    EXPECT_EQ(linesInOrder(proxy).front(), 9);
    // A blank ratio sorts below every real one, both ways.
    proxy.sort(ProfileTableModel::BranchEfficiencyColumn, Qt::DescendingOrder);
    EXPECT_EQ(linesInOrder(proxy).front(), 10);
    proxy.sort(ProfileTableModel::LocationColumn, Qt::AscendingOrder);
    EXPECT_EQ(proxy.index(0, 0).data().toString(), "helpers.cuh:7");
    EXPECT_EQ(proxy.index(1, 0).data().toString(), "5") << "the editor's lines go by number alone";
    EXPECT_EQ(proxy.index(4, 0).data().toString(), "10") << "line 10 after line 9, not before 5";
}

TEST(ProfileTable, TheChosenCounterIsColouredLikeTheMargin)
{
    test::app();
    ProfileTableModel model;
    model.setProfile(handBuilt().lines, ProfileSource(source, "kernel.cu"));
    model.setMetric(ProfileMetric::GlobalSectors);
    const QPalette pal = QApplication::palette();
    for (int r = 0; r < model.rowCount(); ++r) {
        const QVariant bg = model.index(r, ProfileTableModel::MetricColumn).data(Qt::BackgroundRole);
        const std::uint64_t v = ProfileMetrics::value(ProfileMetric::GlobalSectors, model.line(r));
        if (v == 0)
            EXPECT_FALSE(bg.isValid()) << "row " << r;
        else
            EXPECT_EQ(bg.value<QColor>(), HeatScale::colour(v, 128, pal)) << "row " << r;
    }
}

TEST(HeatScale, HotAndColdDifferOnLightAndDarkPaper)
{
    QPalette light(QColor(240, 240, 240));
    QPalette dark(QColor(40, 40, 40));
    dark.setColor(QPalette::WindowText, Qt::white);
    light.setColor(QPalette::WindowText, Qt::black);
    EXPECT_EQ(HeatScale::level(0, 100), 0);
    EXPECT_EQ(HeatScale::level(1, 100), 1);
    EXPECT_EQ(HeatScale::level(100, 100), HeatScale::Levels);
    EXPECT_EQ(HeatScale::level(50, 100), HeatScale::Levels / 2);
    for (const QPalette& pal : {light, dark})
        EXPECT_NE(HeatScale::colour(1, pal), HeatScale::colour(HeatScale::Levels, pal));
    // The hot end is the one that stands out: darker on light paper, lighter on dark.
    EXPECT_LT(HeatScale::colour(HeatScale::Levels, light).lightness(), HeatScale::colour(1, light).lightness());
    EXPECT_GT(HeatScale::colour(HeatScale::Levels, dark).lightness(), HeatScale::colour(1, dark).lightness());
    // Text on the margin reads on either end.
    EXPECT_EQ(HeatScale::textOn(HeatScale::colour(1, light)), QColor(Qt::black));
    EXPECT_EQ(HeatScale::textOn(HeatScale::colour(HeatScale::Levels, light)), QColor(Qt::white));
    EXPECT_NE(HeatScale::colour(HeatScale::Levels, light), HeatScale::colour(HeatScale::Levels, dark));
}

TEST(ProfileMargin, HotAndColdLinesGetDifferentColoursAndHoverShowsCounters)
{
    test::app();
    CodeEditor editor;
    editor.resize(700, 500);
    editor.setText(source);
    editor.show();
    ProfileMargin margin(&editor);
    EXPECT_EQ(editor.marginWidth(ProfileMargin::Margin), 0) << "hidden without a profile";
    margin.setProfile(handBuilt(), "kernel.cu");
    ASSERT_TRUE(margin.isShown());
    EXPECT_GT(editor.marginWidth(ProfileMargin::Margin), 0);

    // Cost: line 7 (132) is the hottest of the editor's lines, line 10 (20) the coldest;
    // the header's 1000 at its line 7 is not the editor's line 7.
    EXPECT_EQ(margin.maximum(), 132u);
    EXPECT_EQ(margin.textOf(7), "132");
    EXPECT_EQ(margin.colourOf(7), HeatScale::colour(HeatScale::Levels, editor.palette()));
    EXPECT_NE(margin.colourOf(7), margin.colourOf(10));
    EXPECT_FALSE(margin.colourOf(3).isValid()) << "a line without counters has no colour";
    EXPECT_EQ(margin.textOf(3), "");
    EXPECT_EQ(marginText(editor, 6), "132 ");
    EXPECT_EQ(marginText(editor, 2), "");
    // What Scintilla paints is the scale's colour, and a hot line's differs from a cold one's.
    EXPECT_EQ(marginPaper(editor, 6), margin.colourOf(7));
    EXPECT_EQ(marginPaper(editor, 9), margin.colourOf(10));
    EXPECT_NE(marginPaper(editor, 6), marginPaper(editor, 9));

    // Divergent branches: only line 10 has any.
    margin.setMetric(ProfileMetric::DivergentBranches);
    EXPECT_EQ(margin.colourOf(10), HeatScale::colour(HeatScale::Levels, editor.palette()));
    EXPECT_FALSE(margin.colourOf(7).isValid());
    EXPECT_EQ(marginText(editor, 6), "");

    // Hovering line 9's cell shows its counters.
    const auto [left, right] = margin.marginSpan();
    const int lineHeight = int(editor.SendScintilla(QsciScintilla::SCI_TEXTHEIGHT, 0));
    const QPoint at((left + right) / 2, 8 * lineHeight + lineHeight / 2);
    EXPECT_EQ(margin.lineAt(at.y()), 9);
    EXPECT_TRUE(margin.tooltipFor(9).contains("Shared loads"));
    EXPECT_TRUE(margin.tooltipFor(9).contains("32-way"));
    QHelpEvent hover(QEvent::ToolTip, at, editor.viewport()->mapToGlobal(at));
    QApplication::sendEvent(editor.viewport(), &hover);
    EXPECT_TRUE(QToolTip::text().contains("2 requests, 64 wavefronts")) << QToolTip::text().toStdString();
    QToolTip::hideText();

    margin.clear();
    EXPECT_EQ(editor.marginWidth(ProfileMargin::Margin), 0);
    EXPECT_EQ(marginText(editor, 9), "");
}
