#include "profile/AccessLayout.hpp"

#include <QFontMetricsF>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace kw {

namespace {
constexpr qreal gapUnits = 0.35; // space between sectors that do not follow each other, in sector widths
// A deeper bank stack is squeezed into this many rows' height in a window; an exported
// picture (wrap) shows every word of it.
constexpr int shownRows = 8;
constexpr int sectorColours = 4;

QFont scaled(const QFont& f, qreal factor)
{
    QFont out = f;
    if (f.pointSizeF() > 0)
        out.setPointSizeF(f.pointSizeF() * factor);
    else
        out.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * factor))));
    return out;
}

qreal wrappedHeight(const QFont& font, qreal width, const QString& text)
{
    if (text.isEmpty())
        return 0;
    return QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
}

std::uint64_t lastByte(const LaneAccess& l) { return l.address + l.bytes - 1; }
} // namespace

int AccessLayout::stackHeight(int bank) const
{
    int n = 0;
    for (const Target& t : targets)
        n += t.bank == bank ? 1 : 0;
    return n;
}

int AccessLayout::laneAt(const QPointF& p) const
{
    for (std::size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i].box.contains(p))
            return int(i);
    return -1;
}

int AccessLayout::targetAt(const QPointF& p) const
{
    for (std::size_t i = 0; i < targets.size(); ++i)
        if (targets[i].box.contains(p))
            return int(i);
    return -1;
}

AccessLayout AccessLayout::compute(const AccessSample& sample, const QString& titleText, const QString& subtitleText,
                                   qreal width, const QFont& baseFont, bool wrap)
{
    AccessLayout L;
    L.stats = AccessStats::of(sample);
    const AccessStats& st = L.stats;
    L.font = baseFont;
    L.small = scaled(baseFont, 0.85);
    L.bold = scaled(baseFont, 1.2);
    L.bold.setBold(true);
    const QFontMetricsF fm(L.font), fs(L.small);
    const qreal m = std::round(fm.height() * 0.8);
    L.wrapsTitle = wrap;
    L.targetsName = st.isShared() ? QObject::tr("banks") : QObject::tr("sectors");

    qreal y = m;
    QFont titleFont = L.font;
    titleFont.setBold(true);
    auto heading = [&](const QString& text, const QFont& f, QRectF& rect, QString& shown) {
        if (text.isEmpty())
            return;
        const qreal w = std::max<qreal>(1.0, width - 2 * m);
        shown = wrap ? text : QFontMetricsF(f).elidedText(text, Qt::ElideRight, w);
        const qreal h = wrap ? wrappedHeight(f, w, text) : QFontMetricsF(f).height();
        rect = QRectF(m, y, w, h);
        y += h + 2;
    };
    heading(titleText, titleFont, L.title, L.titleText);
    heading(subtitleText, L.font, L.subtitle, L.subtitleText);
    if (!titleText.isEmpty() || !subtitleText.isEmpty())
        y += m * 0.4;
    const qreal labelW
        = std::max({fm.horizontalAdvance(QObject::tr("lanes")), fm.horizontalAdvance(QObject::tr("sectors")),
                    fm.horizontalAdvance(QObject::tr("banks"))})
        + m * 0.6;
    const qreal areaX = m + labelW;
    const qreal laneW = std::max<qreal>(12.0, (width - areaX - m) / 32.0);
    const qreal areaW = laneW * 32.0;
    L.width = std::max(width, areaX + areaW + m); // never narrower than 32 legible lanes

    // The number in each lane box: element index from the lowest address (global) or
    // the shared word, whose bank is that number mod 32.
    auto laneNumber = [&](const LaneAccess& l) -> QString {
        if (st.isShared())
            return QString::number(l.address / AccessStats::BankBytes);
        const std::uint64_t off = l.address - st.lowest;
        return QString::number(st.laneBytes > 0 ? off / st.laneBytes : off);
    };
    qreal widest = 0;
    for (const LaneAccess& l : sample.lanes)
        if (l.active && l.bytes > 0)
            widest = std::max(widest, fs.horizontalAdvance(laneNumber(l)));
    L.showsLaneLabels = widest + 4 <= laneW - 2;
    const qreal laneH = fm.height() + (L.showsLaneLabels ? fs.height() : 0) + 8;
    L.lanes.resize(32);
    for (int i = 0; i < 32; ++i) {
        Lane& lane = L.lanes[std::size_t(i)];
        const LaneAccess& a = sample.lanes[i];
        lane.box = QRectF(areaX + i * laneW + 1, y, laneW - 2, laneH);
        lane.active = a.active && a.bytes > 0;
        if (lane.active)
            lane.label = laneNumber(a);
    }
    L.lanesLabel = QRectF(m, y, labelW - m * 0.4, laneH);
    y += laneH;
    const qreal linkH = std::max<qreal>(fm.height() * 2.6, 36);
    y += linkH;
    const qreal targetsTop = y;

    if (!st.isShared()) {
        // Sectors side by side in address order, a gap where one does not follow the
        // other; at most 8 lanes wide, so a coalesced access sits right under its lanes.
        const int n = int(st.sectors.size());
        int breaks = 0;
        for (int k = 1; k < n; ++k)
            breaks += st.sectors[std::size_t(k)] != st.sectors[std::size_t(k - 1)] + 1 ? 1 : 0;
        const qreal units = n + gapUnits * breaks;
        const qreal unitW = n > 0 ? std::min(8 * laneW, areaW / units) : 0;
        const qreal sectorH = fs.height() * 0.9 + fs.height() + 10;
        qreal x = areaX + (areaW - units * unitW) / 2;
        std::map<std::uint64_t, int> targetOf;
        for (int k = 0; k < n; ++k) {
            const std::uint64_t sector = st.sectors[std::size_t(k)];
            if (k > 0 && sector != st.sectors[std::size_t(k - 1)] + 1) {
                L.gaps.push_back(Gap{QRectF(x, targetsTop, gapUnits * unitW, sectorH)});
                x += gapUnits * unitW;
            }
            Target t;
            t.box = QRectF(x + 1, targetsTop, unitW - 2, sectorH);
            t.index = sector;
            const auto start = std::int64_t(sector * AccessStats::SectorBytes) - std::int64_t(st.lowest);
            t.label = QString::number(st.laneBytes > 0 ? start / std::int64_t(st.laneBytes) : start);
            t.colour = k % sectorColours;
            t.usedParts.assign(AccessStats::SectorBytes / 4, false);
            targetOf[sector] = k;
            L.targets.push_back(t);
            x += unitW;
        }
        for (int i = 0; i < 32; ++i) {
            const LaneAccess& a = sample.lanes[i];
            if (!L.lanes[std::size_t(i)].active)
                continue;
            bool first = true;
            for (std::uint64_t sec = a.address / AccessStats::SectorBytes;
                 sec <= lastByte(a) / AccessStats::SectorBytes; ++sec) {
                const int k = targetOf[sec];
                Target& t = L.targets[std::size_t(k)];
                ++t.readers;
                const std::uint64_t secStart = sec * AccessStats::SectorBytes,
                                    secEnd = secStart + AccessStats::SectorBytes;
                const std::uint64_t from = std::max(a.address, secStart), to = std::min(a.address + a.bytes, secEnd);
                for (std::uint64_t w = (from - secStart) / 4; w < (to - secStart + 3) / 4; ++w)
                    t.usedParts[std::size_t(w)] = true;
                const qreal mid = (qreal(from + to) / 2 - qreal(secStart)) / qreal(AccessStats::SectorBytes);
                const Lane& lane = L.lanes[std::size_t(i)];
                L.links.push_back(Link{i, k, QPointF(lane.box.center().x(), lane.box.bottom()),
                                       QPointF(t.box.left() + mid * t.box.width(), t.box.top())});
                if (first)
                    L.lanes[std::size_t(i)].colour = t.colour;
                first = false;
            }
        }
        L.targetsLabel = QRectF(m, targetsTop, labelW - m * 0.4, sectorH);
        y += sectorH;
    } else {
        // Banks in columns under the lanes (bank b under lane b); the distinct words a
        // bank is asked for stack down its column, in the order of their phase.
        const qreal cellNatural = fs.height() + 4;
        const int depth = st.stackDepth;
        const qreal stackH = (wrap ? depth : std::min(depth, shownRows)) * cellNatural;
        const qreal cellH = depth > 0 ? stackH / depth : 0;
        // word -> (first phase, lanes), and per phase and bank the words in order.
        std::map<std::uint64_t, std::pair<int, int>> words;
        std::map<std::pair<int, int>, std::set<std::uint64_t>> phaseBank;
        for (int i = 0; i < 32; ++i) {
            const LaneAccess& a = sample.lanes[i];
            if (!L.lanes[std::size_t(i)].active)
                continue;
            for (std::uint64_t w = a.address / AccessStats::BankBytes; w <= lastByte(a) / AccessStats::BankBytes; ++w) {
                auto [it, fresh] = words.try_emplace(w, st.phaseOf(i), 0);
                it->second.second += 1;
                phaseBank[{st.phaseOf(i), int(w % AccessStats::Banks)}].insert(w);
            }
        }
        std::map<std::uint64_t, int> targetOf;
        for (int b = 0; b < AccessStats::Banks; ++b) {
            std::vector<std::uint64_t> column;
            for (const auto& [w, info] : words)
                if (int(w % AccessStats::Banks) == b)
                    column.push_back(w);
            std::stable_sort(column.begin(), column.end(),
                             [&](std::uint64_t a, std::uint64_t c) { return words[a].first < words[c].first; });
            const qreal colX = areaX + b * laneW;
            for (std::size_t r = 0; r < column.size(); ++r) {
                const std::uint64_t w = column[r];
                const auto& inPhase = phaseBank[{words[w].first, b}];
                Target t;
                t.index = w;
                t.bank = b;
                t.row = int(r);
                t.readers = words[w].second;
                t.conflict = std::distance(inPhase.begin(), inPhase.find(w)) > 0;
                t.colour = t.conflict ? 1 : 0;
                t.box = QRectF(colX + 1, targetsTop + r * cellH, laneW - 2, std::max<qreal>(1.0, cellH - 1));
                if (cellH >= fs.height() && fs.horizontalAdvance(QString::number(w)) + 2 <= laneW - 2)
                    t.label = QString::number(w);
                targetOf[w] = int(L.targets.size());
                L.targets.push_back(t);
            }
        }
        for (int i = 0; i < 32; ++i) {
            const LaneAccess& a = sample.lanes[i];
            if (!L.lanes[std::size_t(i)].active)
                continue;
            for (std::uint64_t w = a.address / AccessStats::BankBytes; w <= lastByte(a) / AccessStats::BankBytes; ++w) {
                const int k = targetOf[w];
                const Target& t = L.targets[std::size_t(k)];
                const Lane& lane = L.lanes[std::size_t(i)];
                L.links.push_back(Link{i, k, QPointF(lane.box.center().x(), lane.box.bottom()),
                                       QPointF(areaX + (t.bank + 0.5) * laneW, targetsTop)});
                if (t.conflict)
                    L.lanes[std::size_t(i)].colour = 1;
            }
        }
        y += stackH + 2;
        const qreal numberH = fs.height() + 2;
        for (int b = 0; b < AccessStats::Banks; ++b)
            L.bankNumbers.push_back(QRectF(areaX + b * laneW, y, laneW, numberH));
        L.targetsLabel = QRectF(m, targetsTop, labelW - m * 0.4, stackH + 2 + numberH);
        y += numberH;
        // The wavefronts each conflicted bank costs, under its column.
        for (int b = 0; b < AccessStats::Banks; ++b) {
            int worst = 0;
            for (const auto& [key, set] : phaseBank)
                if (key.second == b)
                    worst = std::max(worst, int(set.size()));
            if (worst > 1) {
                L.conflictMarks.push_back(QRectF(areaX + b * laneW - laneW * 0.25, y, laneW * 1.5, fs.height() + 2));
                L.conflictDepth.push_back(worst);
            }
        }
        if (!L.conflictMarks.empty())
            y += fs.height() + 2;
    }

    y += m * 0.7;
    const qreal textW = L.width - 2 * m;
    const qreal headH = wrappedHeight(L.bold, textW, st.headline());
    L.headline = QRectF(m, y, textW, headH);
    y += headH + 2;
    const qreal detailH = wrappedHeight(L.font, textW, st.detail());
    L.detail = QRectF(m, y, textW, detailH);
    y += detailH + m;
    L.height = y;
    return L;
}

} // namespace kw
