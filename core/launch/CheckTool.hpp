#pragma once
// The correctness checks a run can ask for, one vocabulary for both backends: the
// simulator's own checks, and compute-sanitizer's tools of the same names on a GPU.
#include "launch/Dim3.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

enum class CheckTool { None, Memcheck, Racecheck, Initcheck, Synccheck };
const char* toString(CheckTool tool); // "memcheck", ... ("none")
std::optional<CheckTool> parseCheckTool(std::string_view s);

// One problem a check found, located like a simulator fault.
struct CheckFinding {
    CheckTool tool = CheckTool::None;
    std::string kind;    // "out of bounds read", "shared-memory race", ...
    std::string message; // one line, complete
    std::string file;
    int line = 0;
    // A race's other access (the earlier one; `line` is the later): both lines are at fault.
    std::string otherFile;
    int otherLine = 0;
    std::optional<Dim3> block, thread;
    std::optional<std::uint64_t> address;
    std::uint32_t count = 1; // identical findings folded into one
};

} // namespace kw
