#pragma once
// The grade as one JSON object (kwb-run grade --json; docs/exercises.md).
#include "grade/GradeReport.hpp"

#include <nlohmann/json.hpp>

namespace kw::grade {

class GradeReportJson {
public:
    static nlohmann::json toJson(const GradeReport& report);
};

} // namespace kw::grade
