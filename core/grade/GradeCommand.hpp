#pragma once
// `kwb-run grade EXERCISE [SOLUTION.cu|.kwb ...]`: grades each solution (without one, the
// exercise's starter) on one device and prints the table, or JSON; writes JUnit XML on
// request. Exit code 0 when every case of every solution passed, 4 otherwise.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace kw::grade {

struct GradeCommandOptions {
    std::string exercise;
    std::vector<std::string> solutions;
    std::string device = "sim";
    bool json = false;
    std::string junit;
    std::optional<std::uint64_t> seed; // the secret seed; random when not given
    bool trust = false;
};

class GradeCommand {
public:
    explicit GradeCommand(GradeCommandOptions options, std::FILE* out = stdout);
    int execute();

private:
    GradeCommandOptions options_;
    std::FILE* out_;
};

} // namespace kw::grade
