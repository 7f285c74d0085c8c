// The memory-access picture: the facts it states about one warp's access (sectors,
// wavefronts, conflict ways), the boxes it lays out for them, and its PNG and SVG.
#include "profile/AccessLayout.hpp"
#include "profile/AccessPicture.hpp"
#include "profile/AccessStats.hpp"
#include "qstring_printer.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <functional>
#include <set>

using namespace kw;

namespace {
constexpr std::uint64_t base = 0x7f0000001000;

// 32 active lanes, lane i at address(i).
AccessSample sample(AccessSample::Space space, std::uint32_t bytes, const std::function<std::uint64_t(int)>& address)
{
    AccessSample s;
    s.space = space;
    s.instruction = space == AccessSample::Space::Shared ? "ld.shared.f32" : "ld.global.f32";
    for (int i = 0; i < 32; ++i)
        s.lanes[i] = LaneAccess{true, address(i), bytes};
    return s;
}

AccessSample global(std::uint32_t bytes, const std::function<std::uint64_t(int)>& address)
{
    return sample(AccessSample::Space::Global, bytes, address);
}

AccessSample shared(std::uint32_t bytes, const std::function<std::uint64_t(int)>& address)
{
    return sample(AccessSample::Space::Shared, bytes, address);
}

AccessLayout layoutOf(const AccessSample& s, qreal width = 1200)
{
    return AccessLayout::compute(s, QStringLiteral("test"), QStringLiteral("ld.global.f32"), width,
                                 QApplication::font());
}
} // namespace

TEST(AccessStats, ACoalescedLoadTakesFourSectorsForItsBytes)
{
    const AccessStats s = AccessStats::of(global(4, [](int i) { return base + 4 * i; }));
    EXPECT_EQ(s.activeLanes, 32);
    EXPECT_EQ(s.uniqueBytes, 128u);
    EXPECT_EQ(s.sectors.size(), 4u);
    EXPECT_EQ(s.idealSectors, 4);
    EXPECT_EQ(s.headline(), "4 sectors for 128 bytes: coalesced");
}

TEST(AccessStats, AStridedLoadTakesASectorPerLane)
{
    const AccessStats s = AccessStats::of(global(4, [](int i) { return base + 128 * i; }));
    EXPECT_EQ(s.sectors.size(), 32u);
    EXPECT_EQ(s.idealSectors, 4);
    EXPECT_EQ(s.stride, 128);
    EXPECT_EQ(s.headline(), "32 sectors for 128 bytes: 8× the 4 a coalesced access needs");
    EXPECT_TRUE(s.detail().contains("128 bytes between neighbouring lanes")) << s.detail().toStdString();
}

TEST(AccessStats, SharedBankConflictsAndBroadcasts)
{
    // Column access of a 32 × 32 float tile: every lane in bank 0, a different word each.
    const AccessStats column = AccessStats::of(shared(4, [](int i) { return 128u * i; }));
    EXPECT_EQ(column.stackDepth, 32);
    EXPECT_EQ(column.worstWays, 32);
    EXPECT_EQ(column.wavefronts, 32);
    EXPECT_EQ(column.idealWavefronts, 1);
    EXPECT_EQ(column.headline(), "32-way bank conflict: 32 wavefronts where 1 would do");
    // Row access: one word per bank.
    const AccessStats row = AccessStats::of(shared(4, [](int i) { return 4u * i; }));
    EXPECT_EQ(row.wavefronts, 1);
    EXPECT_EQ(row.headline(), "No bank conflict: 1 wavefront");
    // Every lane reads the same word: one read, shared.
    const AccessStats same = AccessStats::of(shared(4, [](int) { return 64u; }));
    EXPECT_EQ(same.wavefronts, 1);
    EXPECT_EQ(same.broadcastWords, 1);
    EXPECT_TRUE(same.headline().contains("broadcast"));
    // Eight-byte lanes: two halves of the warp, each one pass through the banks.
    const AccessStats wide = AccessStats::of(shared(8, [](int i) { return 8u * i; }));
    EXPECT_EQ(wide.phases, 2);
    EXPECT_EQ(wide.wavefronts, 2);
    EXPECT_EQ(wide.idealWavefronts, 2);
    EXPECT_EQ(wide.stackDepth, 2);
    EXPECT_EQ(wide.worstWays, 1);
}

TEST(AccessLayout, OneSectorBoxPerDistinctSectorTheLanesTouch)
{
    test::app();
    // An irregular pattern: lanes in pairs, pairs scattered over 2 KiB, some sharing sectors.
    const auto address = [](int i) { return base + std::uint64_t((i / 2) * 7 % 23) * 96 + (i % 2) * 4; };
    std::set<std::uint64_t> distinct;
    for (int i = 0; i < 32; ++i)
        distinct.insert(address(i) / 32);
    const AccessLayout l = layoutOf(global(4, address));
    EXPECT_EQ(l.sectorCount(), int(distinct.size()));
    EXPECT_EQ(l.links.size(), 32u) << "every 4-byte lane links to one sector";
    // Boxes follow the addresses left to right and do not overlap.
    for (std::size_t k = 1; k < l.targets.size(); ++k) {
        EXPECT_LT(l.targets[k - 1].index, l.targets[k].index);
        EXPECT_LE(l.targets[k - 1].box.right(), l.targets[k].box.left());
    }
    // A link ends on the sector that holds its lane's address.
    for (const AccessLayout::Link& link : l.links) {
        const AccessLayout::Target& t = l.targets[std::size_t(link.target)];
        EXPECT_EQ(t.index, address(link.lane) / 32);
        EXPECT_GE(link.to.x(), t.box.left());
        EXPECT_LE(link.to.x(), t.box.right());
    }
    EXPECT_EQ(l.gaps.size(), distinct.size() - 1) << "96-byte steps never give neighbouring sectors";
}

TEST(AccessLayout, ACoalescedAccessSitsRightUnderItsLanes)
{
    test::app();
    const AccessLayout l = layoutOf(global(4, [](int i) { return base + 4 * i; }));
    ASSERT_EQ(l.sectorCount(), 4);
    // Sector k spans lanes 8k to 8k+7: each link goes straight down.
    for (const AccessLayout::Link& link : l.links)
        EXPECT_NEAR(link.from.x(), link.to.x(), l.lanes[0].box.width() * 0.6);
    for (std::size_t k = 0; k < 4; ++k)
        for (bool used : l.targets[k].usedParts)
            EXPECT_TRUE(used);
    EXPECT_TRUE(l.gaps.empty());
    EXPECT_EQ(l.lanes[5].label, "5");
}

TEST(AccessLayout, BankConflictsStackDownTheBankColumn)
{
    test::app();
    const AccessLayout column = layoutOf(shared(4, [](int i) { return 128u * i; }));
    EXPECT_EQ(column.sectorCount(), 0);
    EXPECT_EQ(column.stackHeight(0), 32);
    for (int b = 1; b < 32; ++b)
        EXPECT_EQ(column.stackHeight(b), 0);
    int conflicts = 0;
    for (const AccessLayout::Target& t : column.targets)
        conflicts += t.conflict ? 1 : 0;
    EXPECT_EQ(conflicts, 31) << "the first word is served, 31 wait";
    ASSERT_EQ(column.conflictDepth.size(), 1u);
    EXPECT_EQ(column.conflictDepth[0], 32);
    // The stack stays on screen: 32 words squeezed into the height of a few.
    EXPECT_LT(column.height, 700);

    // Stride 2 words: the even banks get two words each, the odd banks none.
    const AccessLayout two = layoutOf(shared(4, [](int i) { return 8u * i; }));
    for (int b = 0; b < 32; ++b)
        EXPECT_EQ(two.stackHeight(b), b % 2 == 0 ? 2 : 0) << "bank " << b;
    EXPECT_EQ(two.conflictDepth.size(), 16u);

    // A broadcast is one word read by every lane, no stack.
    const AccessLayout same = layoutOf(shared(4, [](int) { return 64u; }));
    ASSERT_EQ(same.targets.size(), 1u);
    EXPECT_EQ(same.targets[0].readers, 32);
    EXPECT_EQ(same.targets[0].bank, 16);
    EXPECT_EQ(same.links.size(), 32u);
    EXPECT_TRUE(same.conflictMarks.empty());

    // Bank b's column is under lane b.
    const AccessLayout row = layoutOf(shared(4, [](int i) { return 4u * i; }));
    for (const AccessLayout::Target& t : row.targets)
        EXPECT_NEAR(t.box.center().x(), row.lanes[std::size_t(t.bank)].box.center().x(), 0.5);
}

TEST(AccessLayout, InactiveLanesHaveNoLinks)
{
    test::app();
    AccessSample s = global(4, [](int i) { return base + 4 * i; });
    for (int i = 16; i < 32; ++i)
        s.lanes[i].active = false;
    const AccessLayout l = layoutOf(s);
    EXPECT_EQ(l.links.size(), 16u);
    EXPECT_EQ(l.sectorCount(), 2);
    EXPECT_FALSE(l.lanes[20].active);
    EXPECT_TRUE(l.lanes[20].label.isEmpty());
    EXPECT_EQ(l.stats.headline(), "2 sectors for 64 bytes: coalesced");
}

TEST(AccessLayout, NarrowWidthsDropTheNumbersNotTheLanes)
{
    test::app();
    const AccessSample s = global(4, [](int i) { return base + 4096 * i; });
    const AccessLayout wide = layoutOf(s, 1600);
    const AccessLayout narrow = layoutOf(s, 300);
    EXPECT_TRUE(wide.showsLaneLabels);
    EXPECT_FALSE(narrow.showsLaneLabels);
    EXPECT_GE(narrow.width, 300);
    for (std::size_t i = 1; i < narrow.lanes.size(); ++i)
        EXPECT_LE(narrow.lanes[i - 1].box.right(), narrow.lanes[i].box.left());
}

TEST(AccessPicture, ExportsAValidPngAndSvg)
{
    test::app();
    QTemporaryDir dir;
    AccessPicture picture;
    QString error;
    EXPECT_FALSE(picture.exportTo(dir.filePath("none.png"), &error)) << "nothing to export yet";
    EXPECT_FALSE(error.isEmpty());
    picture.setSample(shared(4, [](int i) { return 128u * i; }), QStringLiteral("Line 9: s[threadIdx.x * 32]"));
    ASSERT_TRUE(picture.exportTo(dir.filePath("conflict.png"), &error)) << error.toStdString();
    QImage png(dir.filePath("conflict.png"));
    ASSERT_FALSE(png.isNull());
    EXPECT_GE(png.width(), 2 * AccessPicture::ExportWidth) << "twice the logical size, for slides";
    // Not a blank page: the picture has several colours.
    std::set<QRgb> colours;
    for (int y = 0; y < png.height(); y += 7)
        for (int x = 0; x < png.width(); x += 7)
            colours.insert(png.pixel(x, y));
    EXPECT_GT(colours.size(), 10u);

    ASSERT_TRUE(picture.exportTo(dir.filePath("conflict.svg"), &error)) << error.toStdString();
    QFile svg(dir.filePath("conflict.svg"));
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    EXPECT_TRUE(text.contains("<svg"));
    EXPECT_TRUE(text.contains("32-way bank conflict"));
    QSvgRenderer renderer(dir.filePath("conflict.svg"));
    EXPECT_TRUE(renderer.isValid());
    EXPECT_EQ(renderer.viewBoxF().width(), AccessPicture::ExportWidth);

    EXPECT_FALSE(picture.exportTo(dir.filePath("conflict.bmp"), &error));
    EXPECT_TRUE(error.contains("png")) << error.toStdString();
}

TEST(AccessPicture, ItsHeightFollowsItsWidth)
{
    test::app();
    AccessPicture picture;
    picture.setSample(global(4, [](int i) { return base + 4 * i; }), QStringLiteral("t"));
    EXPECT_TRUE(picture.hasHeightForWidth());
    EXPECT_GT(picture.heightForWidth(900), 100);
    picture.resize(900, 50);
    EXPECT_GE(picture.minimumHeight(), picture.heightForWidth(900)) << "a scroll area scrolls instead of squeezing it";
    picture.setMessage(QStringLiteral("nothing"));
    EXPECT_FALSE(picture.hasSample());
}
