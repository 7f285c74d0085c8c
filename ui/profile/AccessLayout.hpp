#pragma once
// Where the access picture draws what, for a given width and font: the 32 lanes as a
// row of boxes, and under them either the distinct 32-byte sectors the lanes touch
// (global, local) or the 32 banks with the distinct words each is asked for stacked
// down its column (shared), the links from each lane to what it touches, and the
// caption. Pure geometry, so tests can count boxes and stacks without pixels.
#include "profile/AccessStats.hpp"

#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <vector>

namespace kw {

class AccessLayout {
public:
    struct Lane {
        QRectF box;
        bool active = false;
        QString label;  // element or word index; empty for an inactive lane
        int colour = 0; // index into the picture's colours
    };
    // A sector (global, local) or one word in a bank's column (shared).
    struct Target {
        QRectF box;
        std::uint64_t index = 0; // sector or word number
        QString label;
        int colour = 0;
        int bank = -1;               // shared only
        int row = 0;                 // shared: place in its bank's stack, from the top
        bool conflict = false;       // shared: a second or later word of its bank in one phase
        int readers = 0;             // lanes that touch it
        std::vector<bool> usedParts; // sectors: which of its 4-byte words the lanes touch
    };
    struct Link {
        int lane = 0, target = 0;
        QPointF from, to;
    };
    struct Gap {
        QRectF box; // between sectors that do not follow each other
    };

    // title: what and where, bold; subtitle below it. A window elides each to one line
    // (wrap false); an exported picture wraps them.
    static AccessLayout compute(const AccessSample& sample, const QString& title, const QString& subtitle, qreal width,
                                const QFont& font, bool wrap = false);

    AccessStats stats;
    QFont font, small, bold; // text, the numbers in boxes, the headline
    QRectF title, subtitle, lanesLabel, targetsLabel, headline, detail;
    QString titleText, subtitleText, targetsName; // as drawn (elided when not wrapped)
    bool wrapsTitle = false;
    std::vector<Lane> lanes; // always 32
    std::vector<Target> targets;
    std::vector<Link> links;
    std::vector<Gap> gaps;
    std::vector<QRectF> bankNumbers;   // shared: the 32 bank headers under the stacks
    std::vector<QRectF> conflictMarks; // shared: under a bank whose words take several wavefronts
    std::vector<int> conflictDepth;    // the number written in each mark
    bool showsLaneLabels = true;       // false when the boxes are too narrow for the numbers
    qreal width = 0, height = 0;

    int sectorCount() const { return stats.isShared() ? 0 : int(targets.size()); }
    // The height of bank b's stack in words (shared).
    int stackHeight(int bank) const;
    // The lane under p, or -1.
    int laneAt(const QPointF& p) const;
    int targetAt(const QPointF& p) const;
};

} // namespace kw
