#include "profile/AccessStats.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace kw {

namespace {
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1)
{
    return QObject::tr(text, disambiguation, n);
}

// Slides get "1 sector" and "4 sectors", not "4 sector(s)".
QString counted(int n, const char* one, const char* many)
{
    return n == 1 ? QObject::tr(one) : QObject::tr(many).arg(n);
}

QString times(double factor)
{
    return QString::number(factor, 'g', 3); // 8, 1.25, 2.67
}
} // namespace

AccessStats AccessStats::of(const AccessSample& sample)
{
    AccessStats s;
    s.space = sample.space;
    s.store = sample.store;
    std::set<std::uint64_t> bytes, sectors;
    std::optional<std::uint32_t> size;
    bool sameSize = true;
    std::optional<std::uint64_t> previous;
    std::optional<std::int64_t> step;
    bool regular = true;
    for (const LaneAccess& lane : sample.lanes) {
        if (!lane.active || lane.bytes == 0)
            continue;
        ++s.activeLanes;
        if (size && *size != lane.bytes)
            sameSize = false;
        size = lane.bytes;
        if (previous) {
            const std::int64_t d = std::int64_t(lane.address - *previous);
            if (step && *step != d)
                regular = false;
            step = d;
        }
        previous = lane.address;
        for (std::uint64_t b = lane.address; b < lane.address + lane.bytes; ++b)
            bytes.insert(b);
        for (std::uint64_t sec = lane.address / SectorBytes; sec <= (lane.address + lane.bytes - 1) / SectorBytes;
             ++sec)
            sectors.insert(sec);
        s.phases = std::max(s.phases, int(std::clamp<std::uint32_t>((lane.bytes + 3) / 4, 1, 4)));
    }
    if (s.activeLanes == 0)
        return s;
    s.laneBytes = sameSize ? *size : 0;
    s.lowest = *bytes.begin();
    s.uniqueBytes = bytes.size();
    if (regular && step)
        s.stride = step;
    if (s.phases == 3)
        s.phases = 4;

    if (!s.isShared()) {
        s.sectors.assign(sectors.begin(), sectors.end());
        s.idealSectors = int((s.uniqueBytes + SectorBytes - 1) / SectorBytes);
        return s;
    }

    // Shared: each bank serves one word per wavefront; lanes asking for the same word
    // share it (a broadcast). Wide accesses split the warp into phases, each of which
    // covers at most 128 bytes and takes its own wavefronts.
    std::map<std::uint64_t, int> readers;
    std::vector<std::array<std::set<std::uint64_t>, Banks>> perPhase(std::size_t(s.phases));
    std::array<std::set<std::uint64_t>, Banks> all;
    for (int i = 0; i < 32; ++i) {
        const LaneAccess& lane = sample.lanes[i];
        if (!lane.active || lane.bytes == 0)
            continue;
        for (std::uint64_t w = lane.address / BankBytes; w <= (lane.address + lane.bytes - 1) / BankBytes; ++w) {
            const int bank = int(w % Banks);
            all[std::size_t(bank)].insert(w);
            perPhase[std::size_t(s.phaseOf(i))][std::size_t(bank)].insert(w);
            ++readers[w];
        }
    }
    for (int b = 0; b < Banks; ++b) {
        s.bankWords[std::size_t(b)].assign(all[std::size_t(b)].begin(), all[std::size_t(b)].end());
        s.stackDepth = std::max(s.stackDepth, int(all[std::size_t(b)].size()));
    }
    for (const auto& phase : perPhase) {
        int depth = 0;
        for (const auto& words : phase)
            depth = std::max(depth, int(words.size()));
        if (depth == 0)
            continue;
        s.wavefronts += depth;
        s.idealWavefronts += 1;
        s.worstWays = std::max(s.worstWays, depth);
    }
    for (const auto& [word, n] : readers)
        s.broadcastWords += n > 1 ? 1 : 0;
    return s;
}

QString AccessStats::headline() const
{
    if (activeLanes == 0)
        return tr("No lane of this warp was active");
    if (isShared()) {
        if (wavefronts <= idealWavefronts) {
            const QString passes = counted(wavefronts, "1 wavefront", "%1 wavefronts");
            if (broadcastWords > 0)
                return tr("No bank conflict: %1, lanes reading the same word share it (broadcast)").arg(passes);
            return tr("No bank conflict: %1").arg(passes);
        }
        return tr("%1-way bank conflict: %2 wavefronts where %3 would do")
            .arg(worstWays)
            .arg(wavefronts)
            .arg(idealWavefronts);
    }
    const QString got = counted(int(sectors.size()), "1 sector", "%1 sectors") + tr(" for %1 bytes").arg(uniqueBytes);
    if (int(sectors.size()) <= idealSectors)
        return activeLanes > 1 && uniqueBytes <= laneBytes ? tr("%1: every lane uses the same address").arg(got)
                                                           : tr("%1: coalesced").arg(got);
    return tr("%1: %2× the %3 a coalesced access needs")
        .arg(got, times(double(sectors.size()) / double(std::max(1, idealSectors))))
        .arg(idealSectors);
}

QString AccessStats::detail() const
{
    if (activeLanes == 0)
        return {};
    const QString lanes = laneBytes > 0 ? tr("%1 active lanes × %2 bytes").arg(activeLanes).arg(laneBytes)
                                        : tr("%1 active lanes of mixed sizes").arg(activeLanes);
    QString numbers;
    if (isShared()) {
        numbers = tr("numbers are 4-byte words of shared memory (offset / 4); bank = word mod 32");
        if (phases > 1)
            numbers += tr("; %1-byte accesses go in %2 phases of %3 lanes").arg(laneBytes).arg(phases).arg(32 / phases);
    } else if (laneBytes > 0) {
        numbers = tr("numbers are %1-byte element indices from address 0x%2; a 32-byte sector holds %3 of them")
                      .arg(laneBytes)
                      .arg(QString::number(lowest, 16))
                      .arg(std::max<std::uint64_t>(1, SectorBytes / laneBytes));
    } else {
        numbers = tr("numbers are byte offsets from address 0x%1").arg(QString::number(lowest, 16));
    }
    QString text = lanes + QStringLiteral("; ") + numbers;
    if (stride && !isShared() && *stride != std::int64_t(laneBytes))
        text += tr("; %1 bytes between neighbouring lanes").arg(*stride);
    return text;
}

} // namespace kw
