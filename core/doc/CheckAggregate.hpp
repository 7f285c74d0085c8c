#pragma once
// The reductions an aggregate check applies to a per-element expression over a buffer.
#include <cstddef>
#include <string_view>

namespace kw {

bool isAggregate(std::string_view name); // sum min max mean count any all

// Accumulates values one by one; result() is the aggregate over what was added.
class CheckAggregate {
public:
    explicit CheckAggregate(std::string_view name);
    void add(double v);
    double result() const;

private:
    enum class Op { Sum, Min, Max, Mean, Count, Any, All } op_;
    double acc_ = 0;
    std::size_t n_ = 0;
};

} // namespace kw
