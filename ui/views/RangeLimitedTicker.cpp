#include "views/RangeLimitedTicker.hpp"

#include <algorithm>

namespace kw {

void RangeLimitedTicker::setLimit(double lower, double upper)
{
    limited_ = true;
    lower_ = lower;
    upper_ = upper;
}

double RangeLimitedTicker::getTickStep(const QCPRange& range)
{
    return QCPAxisTicker::getTickStep(limited_ ? QCPRange(lower_, upper_) : range);
}

QVector<double> RangeLimitedTicker::createTickVector(double tickStep, const QCPRange& range)
{
    QVector<double> ticks = QCPAxisTicker::createTickVector(tickStep, range);
    if (!limited_)
        return ticks;
    const double slack = 1e-9 * std::max(1.0, upper_ - lower_);
    ticks.erase(
        std::remove_if(ticks.begin(), ticks.end(), [&](double t) { return t < lower_ - slack || t > upper_ + slack; }),
        ticks.end());
    return ticks;
}

} // namespace kw
