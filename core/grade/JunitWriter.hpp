#pragma once
// The grade as JUnit XML, as CI systems and gradebooks read it: <testsuites> with one
// <testsuite> per solution and one <testcase> per case; a wrong output or a missed goal
// is a <failure>, a compile error, a fault or a machinery error an <error>.
#include "grade/GradeReport.hpp"

#include <filesystem>
#include <string>

namespace kw::grade {

class JunitWriter {
public:
    static std::string toXml(const GradeReport& report);
    // Throws kw::Error(Io) when the file cannot be written.
    static void write(const GradeReport& report, const std::filesystem::path& path);
};

} // namespace kw::grade
