#pragma once
// How one output buffer of an exercise is compared with the reference's: exactly, within
// tolerances, or within a number of units in the last place, with a rule for NaN.
#include "data/DType.hpp"
#include "data/HostBuffer.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace kw::grade {

struct ElementMismatch {
    std::size_t index = 0;
    double expected = 0, got = 0;
    bool unwritten = false; // got still holds the sentinel the output was filled with
};

struct ComparisonResult {
    std::size_t checked = 0, wrong = 0, unwritten = 0;
    std::optional<ElementMismatch> first; // the lowest wrong index
};

class OutputComparison {
public:
    enum class Mode { Exact, Tolerance, Ulp };
    enum class Nan { Match, Wrong }; // NaN expected and got: a match, or always wrong

    std::string buffer;
    Mode mode = Mode::Exact;
    double atol = 0, rtol = 0; // Tolerance: |got - expected| <= atol + rtol * |expected|
    std::uint64_t ulp = 0;     // Ulp: at most this many representable values apart
    Nan nan = Nan::Match;

    // One element: `expected` and `got` as the buffer's dtype holds them.
    bool matches(DType dtype, double expected, double got) const;
    // Distance in units in the last place of `dtype` (integers: the difference); NaN:
    // the largest value.
    static std::uint64_t ulpDistance(DType dtype, double a, double b);

    // Every element; `sentinel` (when given) is the value the output held before the
    // launch, so an element that still holds it where another was expected was never written.
    ComparisonResult compare(const HostBuffer& expected, const HostBuffer& got,
                             std::optional<double> sentinel = std::nullopt) const;

    // `value` as an element of `dtype` holds it (a float rounds a double).
    static double asHeld(DType dtype, double value);

    std::string describe() const; // "exact", "atol 1e-06 rtol 1e-05", "ulp <= 2"
    static const char* toString(Mode mode);
};

} // namespace kw::grade
