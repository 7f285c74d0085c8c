#pragma once
// How long the run took: each timed repeat with its median and spread (min/max, IQR),
// the phases of the run as one stacked bar, and the achieved memory bandwidth against
// the device's peak when the peak is known.
#include "launch/RunResult.hpp"
#include "launch/TimingStats.hpp"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QProgressBar;

namespace kw {

class TimingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingsPanel(QWidget* parent = nullptr);

    void showResult(const RunResult& result);
    void clear();

    const TimingStats& stats() const { return stats_; }
    QLabel* summary() const { return summary_; }
    QLabel* bandwidthLabel() const { return bandwidth_; }
    QProgressBar* bandwidthBar() const { return bandwidthBar_; }
    QCustomPlot* repeatPlot() const { return repeats_; }
    QCustomPlot* breakdownPlot() const { return breakdown_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    // The plots' legends in as many columns as fit their width, the rows below.
    void fitLegend();
    void plotRepeats(const std::vector<double>& ms);
    void plotBreakdown(const RunResult& r);

    TimingStats stats_;
    QLabel* summary_;
    QCustomPlot* repeats_;
    QCustomPlot* breakdown_;
    QLabel* bandwidth_;
    QProgressBar* bandwidthBar_;
    bool simulated_ = false; // times from the CPU simulator, not a GPU
};

} // namespace kw
