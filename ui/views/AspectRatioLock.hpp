#pragma once
// Keeps one unit on a plot's x axis as many pixels long as one unit on its y axis,
// so the cells of an image stay square. The ranges last set (by fitting to the
// data, zooming or dragging) are what must stay visible; whenever those ranges or
// the axis rect's size change, the axis that would be stretched gets a wider range.
// Zoom and drag scale both axes alike, so they keep the ratio by themselves.
// Switched off, the ranges last set are shown as they are, each filling its axis.
// Either way the ticks are as many as the pixels the image spans have room for.
#include <QObject>
#include <QSharedPointer>
#include <QSize>

class QCPAxisRect;
class QCustomPlot;

namespace kw {

class RangeLimitedTicker;

class AspectRatioLock : public QObject {
    Q_OBJECT
public:
    explicit AspectRatioLock(QCustomPlot* plot);

    void setActive(bool on);
    bool active() const { return active_; }

private:
    void rangesSet();
    void afterLayout();
    bool spaceTicks(double xPixels, double yPixels); // true when a tick count changed
    void retick(QCPAxisRect* rect);                  // after the ticks changed in a layout pass

    QCustomPlot* plot_;
    QSharedPointer<RangeLimitedTicker> xTicker_, yTicker_; // no ticks in the margins
    double wantX_[2] = {0, 1}, wantY_[2] = {0, 1};         // lower, upper of the ranges to show
    QSize fittedTo_;                                       // axis rect size of the last fit
    bool dirty_ = true;                                    // ranges changed since the last fit
    bool adjusting_ = false;                               // our own range change, not one to remember
    bool active_ = true;
    int settling_ = 0; // passes queued since the layout last held still
};

} // namespace kw
