#pragma once
// QCustomPlot's ticker, without the ticks outside a range: an image drawn with square
// cells has empty margins beside it, and ticks there would name columns or rows that
// do not exist (-100 for a 64-wide image).
#include <qcustomplot.h>

namespace kw {

class RangeLimitedTicker : public QCPAxisTicker {
public:
    // No limit until one is set.
    void setLimit(double lower, double upper);
    void clearLimit() { limited_ = false; }

protected:
    // Steps as for the range itself, so the image's extent gets its usual few ticks.
    double getTickStep(const QCPRange& range) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

private:
    bool limited_ = false;
    double lower_ = 0, upper_ = 0;
};

} // namespace kw
