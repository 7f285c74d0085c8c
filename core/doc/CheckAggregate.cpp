#include "doc/CheckAggregate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kw {

namespace {
constexpr std::string_view kNames[] = {"sum", "min", "max", "mean", "count", "any", "all"};
}

bool isAggregate(std::string_view name)
{
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

CheckAggregate::CheckAggregate(std::string_view name)
    : op_(Op(std::find(std::begin(kNames), std::end(kNames), name) - std::begin(kNames)))
{
    if (op_ == Op::Min)
        acc_ = std::numeric_limits<double>::infinity();
    else if (op_ == Op::Max)
        acc_ = -std::numeric_limits<double>::infinity();
    else if (op_ == Op::All)
        acc_ = 1;
}

void CheckAggregate::add(double v)
{
    ++n_;
    switch (op_) {
    case Op::Sum:
    case Op::Mean: acc_ += v; break;
    case Op::Min: acc_ = std::isnan(v) || std::isnan(acc_) ? NAN : std::min(acc_, v); break;
    case Op::Max: acc_ = std::isnan(v) || std::isnan(acc_) ? NAN : std::max(acc_, v); break;
    case Op::Count: acc_ += v != 0 ? 1 : 0; break;
    case Op::Any: acc_ = acc_ != 0 || v != 0 ? 1 : 0; break;
    case Op::All: acc_ = acc_ != 0 && v != 0 ? 1 : 0; break;
    }
}

double CheckAggregate::result() const
{
    if (op_ == Op::Mean)
        return n_ ? acc_ / double(n_) : NAN;
    return acc_;
}

} // namespace kw
