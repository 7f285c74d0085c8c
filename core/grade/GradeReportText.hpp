#pragma once
// The grade as a terminal reads it: per solution a table of its cases (case, size,
// result, time, counters against the goals), under it what went wrong in each failed case
// (the first wrong element, who wrote it and where), and a total.
#include "grade/GradeReport.hpp"

#include <string>

namespace kw::grade {

class GradeReportText {
public:
    static std::string format(const GradeReport& report);
    // "block (1,0,0) thread (37,0,0) (warp 1 lane 5) at kernel.cu:12", or the note.
    static std::string writer(const ElementWriter& w);
};

} // namespace kw::grade
