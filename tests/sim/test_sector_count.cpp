// The sector count of one warp's request, on every path countSectors takes: the fast
// path (one power-of-two size, addresses never decreasing), the sorted sweep (mixed
// sizes in address order) and the sort (lanes out of address order), each compared with
// a count made the slow, obvious way: the set of sectors and the set of bytes touched.
#include "sim/ProfileCollector.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>

namespace {

using kw::sim::countSectors;
using kw::sim::SectorCount;

struct Request {
    std::uint64_t addr[32] = {};
    std::uint32_t size[32] = {};
    std::uint32_t lanes = 0;
};

SectorCount byHand(const Request& r)
{
    std::set<std::uint64_t> sectors, bytes;
    for (int l = 0; l < 32; ++l) {
        if (!(r.lanes >> l & 1))
            continue;
        for (std::uint64_t b = r.addr[l]; b < r.addr[l] + r.size[l]; ++b) {
            sectors.insert(b / 32);
            bytes.insert(b);
        }
    }
    return {std::uint32_t(sectors.size()), std::uint32_t((bytes.size() + 31) / 32)};
}

void expectSame(const Request& r, const char* what)
{
    const SectorCount got = countSectors(r.addr, r.size, r.lanes);
    const SectorCount want = byHand(r);
    EXPECT_EQ(got.sectors, want.sectors) << what;
    EXPECT_EQ(got.ideal, want.ideal) << what;
}

Request contiguous(std::uint32_t size, std::uint64_t base = 4096)
{
    Request r;
    r.lanes = 0xffffffffu;
    for (int l = 0; l < 32; ++l) {
        r.addr[l] = base + std::uint64_t(l) * size;
        r.size[l] = size;
    }
    return r;
}

TEST(SectorCount, ContiguousFourByteLanesTouchFourSectorsInEveryOrder)
{
    Request r = contiguous(4);
    EXPECT_EQ(countSectors(r.addr, r.size, r.lanes).sectors, 4u);
    // The same bytes with the lanes reversed and shuffled: still four sectors, four ideal.
    std::reverse(r.addr, r.addr + 32);
    EXPECT_EQ(countSectors(r.addr, r.size, r.lanes).sectors, 4u);
    EXPECT_EQ(countSectors(r.addr, r.size, r.lanes).ideal, 4u);
    std::mt19937 rng(7);
    std::shuffle(r.addr, r.addr + 32, rng);
    const SectorCount s = countSectors(r.addr, r.size, r.lanes);
    EXPECT_EQ(s.sectors, 4u);
    EXPECT_EQ(s.ideal, 4u);
}

TEST(SectorCount, LanesOnOneAddressAreOneSectorWhateverTheirOrder)
{
    Request r;
    r.lanes = 0xffffffffu;
    for (int l = 0; l < 32; ++l) {
        r.addr[l] = 1000;
        r.size[l] = 8;
    }
    SectorCount s = countSectors(r.addr, r.size, r.lanes);
    EXPECT_EQ(s.sectors, 1u);
    EXPECT_EQ(s.ideal, 1u);
    // Two addresses alternating between lanes, each in its own sector: two sectors.
    for (int l = 0; l < 32; ++l)
        r.addr[l] = l % 2 ? 4096 : 1024;
    s = countSectors(r.addr, r.size, r.lanes);
    EXPECT_EQ(s.sectors, 2u);
    EXPECT_EQ(s.ideal, 1u); // 16 distinct bytes fit one sector
}

TEST(SectorCount, AnAccessAcrossASectorBoundaryCountsBothSectors)
{
    Request r;
    r.lanes = 0b11;
    r.addr[0] = 60; // bytes 60..75: sectors 1 and 2
    r.size[0] = 16;
    r.addr[1] = 10; // bytes 10..13: sector 0, out of order
    r.size[1] = 4;
    const SectorCount s = countSectors(r.addr, r.size, r.lanes);
    EXPECT_EQ(s.sectors, 3u);
    EXPECT_EQ(s.ideal, 1u); // 20 distinct bytes
    expectSame(r, "straddling, out of order");
}

TEST(SectorCount, WideAndMixedSizesOverlapping)
{
    Request r;
    r.lanes = 0b1111;
    r.addr[0] = 0;
    r.size[0] = 64; // a 64-byte access: two sectors
    r.addr[1] = 32;
    r.size[1] = 8; // inside lane 0's bytes
    r.addr[2] = 200;
    r.size[2] = 2;
    r.addr[3] = 62;
    r.size[3] = 4; // crosses into sector 2
    const SectorCount s = countSectors(r.addr, r.size, r.lanes);
    EXPECT_EQ(s.sectors, 4u); // sectors 0, 1, 2 and 6
    EXPECT_EQ(s.ideal, 3u);   // 64 + 2 + 2 distinct bytes
    expectSame(r, "mixed sizes");
}

TEST(SectorCount, InactiveAndEmptyLanesAddNothing)
{
    Request r = contiguous(4);
    r.lanes = 0x0000ffffu; // the upper half carries addresses that must be ignored
    for (int l = 16; l < 32; ++l)
        r.addr[l] = 1u << 20;
    EXPECT_EQ(countSectors(r.addr, r.size, r.lanes).sectors, 2u);
    r.size[3] = 0;
    expectSame(r, "a zero-size lane");
    EXPECT_EQ(countSectors(r.addr, r.size, 0).sectors, 0u);
}

TEST(SectorCount, AgreesWithTheSlowCountOnRandomRequests)
{
    std::mt19937_64 rng(20261206);
    const std::uint32_t sizes[] = {1, 2, 4, 8, 16, 12, 3, 48};
    int cases = 0;
    for (int round = 0; round < 4000; ++round) {
        Request r;
        r.lanes = std::uint32_t(rng()) | (round % 3 == 0 ? 0xffffffffu : 0u);
        const bool oneSize = round % 2 == 0;
        const std::uint32_t common = sizes[rng() % 4];
        const std::uint64_t span = 32ull << (rng() % 8);
        for (int l = 0; l < 32; ++l) {
            r.size[l] = oneSize ? common : sizes[rng() % 8];
            r.addr[l] = rng() % span;
            if (oneSize)
                r.addr[l] -= r.addr[l] % r.size[l]; // aligned, as the hardware requires
        }
        if (round % 4 == 1) // in address order: the fast and sorted paths
            std::sort(r.addr, r.addr + 32);
        expectSame(r, "random request");
        ++cases;
        if (::testing::Test::HasFailure())
            break;
    }
    EXPECT_EQ(cases, 4000);
}

} // namespace

namespace {

// Shared-memory wavefronts counted the obvious way: per phase of lanes, the distinct words
// each bank is asked for; the busiest bank's count is the phase's wavefronts.
kw::sim::WavefrontCount wavefrontsByHand(const std::uint64_t* offset, std::uint32_t size, std::uint32_t lanes)
{
    const std::uint32_t words = size > 4 ? size / 4 : 1, perPhase = 32 / words;
    kw::sim::WavefrontCount r;
    for (std::uint32_t first = 0; first < 32; first += perPhase) {
        std::set<std::uint32_t> bank[32];
        for (std::uint32_t l = first; l < first + perPhase; ++l)
            if (lanes >> l & 1)
                for (std::uint32_t k = 0; k < words; ++k) {
                    const auto w = std::uint32_t(offset[l] / 4) + k;
                    bank[w % 32].insert(w);
                }
        std::uint32_t busiest = 0;
        for (const auto& b : bank)
            busiest = std::max(busiest, std::uint32_t(b.size()));
        if (busiest == 0)
            continue;
        r.ideal += 1;
        r.wavefronts += busiest;
        r.worst = std::max(r.worst, busiest);
    }
    return r;
}

} // namespace

// Whole phases (a loop over every lane) and partial ones (the active lanes only), words
// close together and scattered, 4-, 8- and 16-byte accesses: as counted by hand.
TEST(SectorCount, WavefrontsOfWholeAndPartialWarpsAsCountedByHand)
{
    std::mt19937 rng(11);
    for (std::uint32_t size : {4u, 8u, 16u})
        for (int round = 0; round < 300; ++round) {
            std::uint64_t offset[32];
            const std::uint32_t spread = round % 3 == 0 ? 32 : round % 3 == 1 ? 128 : 4096;
            const bool strided = round % 5 == 0;
            for (std::uint32_t l = 0; l < 32; ++l)
                offset[l] = size * (strided ? l * (1 + round % 4) : rng() % spread);
            const std::uint32_t lanes = round % 2 ? 0xffffffffu : std::uint32_t(rng());
            const auto mine = kw::sim::countWavefronts(offset, size, lanes);
            const auto hand = wavefrontsByHand(offset, size, lanes);
            SCOPED_TRACE("size " + std::to_string(size) + " round " + std::to_string(round));
            EXPECT_EQ(mine.wavefronts, hand.wavefronts);
            EXPECT_EQ(mine.ideal, hand.ideal);
            EXPECT_EQ(mine.worst, hand.worst);
        }
}

// A whole warp whose halves each ask for one word or 16 consecutive words, as a tile's row
// or column is read (AccessLog::regularHalves): counted from lanes 0, 1 and 16, as counted
// by hand and by the general count, for each place of the second half against the first.
TEST(SectorCount, WavefrontsOfRegularHalvesAsCountedByHand)
{
    int cases = 0;
    for (std::uint64_t stride : {0u, 4u})
        for (std::uint64_t a : {0u, 4u, 60u, 64u, 124u, 128u, 192u, 4092u})
            for (std::uint64_t b = 0; b < 640; b += 4) {
                std::uint64_t offset[32];
                for (std::uint64_t l = 0; l < 16; ++l) {
                    offset[l] = a + stride * l;
                    offset[16 + l] = b + stride * l;
                }
                SCOPED_TRACE("stride " + std::to_string(stride) + " halves at " + std::to_string(a) + " and "
                             + std::to_string(b));
                const auto fast = kw::sim::countWavefronts(offset, 4, 0xffffffffu, true);
                EXPECT_EQ(fast, wavefrontsByHand(offset, 4, 0xffffffffu));
                EXPECT_EQ(fast, kw::sim::countWavefronts(offset, 4, 0xffffffffu));
                ++cases;
                if (::testing::Test::HasFailure())
                    return;
            }
    EXPECT_EQ(cases, 2 * 8 * 160);
}
