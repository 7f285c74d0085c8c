#pragma once
// Reads the report compute-sanitizer saves with --xml --save FILE into findings
// located like a simulator fault: source file and line (the program is compiled
// with -lineinfo), block, thread, address. Records of one kind at one place are
// folded into one finding with a count. A record this reader does not know becomes
// a finding with the record's own text; none is dropped.
//
// The format (compute-sanitizer 2025.3; docs/checks.md has excerpts): the root
// <ComputeSanitizerOutput> holds one <record> per error, whose <kind> is
//   Precise    memcheck: <who> (threadIdx, blockIdx), <what> (text, space, size,
//              direction, error, address), <where> (func, path, line, pc)
//   Initcheck  <who>, <what> (text, address, size), <where>
//   Synccheck  <who>, <what> (text, type), <where>
//   Hazard     racecheck, one per access pair: <what> (text, common (type, address,
//              blockIdx), thread0 and thread1 (access, threadIdx, where))
//   Analysis   racecheck, one per pair of source lines: <what> (text, source and
//              destination (direction, where), destination/count)
//   Api        a failed CUDA call: <what> (text, api, error, result)
#include "launch/CheckTool.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct SanitizerReport {
    std::vector<CheckFinding> findings; // folded, in the order first seen
    std::size_t records = 0;            // <record> elements read
    std::string problem;                // non-empty: the report was cut short or is not one
};

class SanitizerXmlReader {
public:
    // Maps a source path as compute-sanitizer names it to the name the user knows.
    using PathMap = std::function<std::string(const std::string&)>;

    // `tool` is the tool that wrote the report (each finding's tool). A report cut
    // short still gives the records before the cut, and says so in `problem`.
    static SanitizerReport parse(std::string_view xml, CheckTool tool, const PathMap& mapPath = {});
    // Throws kw::Error(Io) when the file cannot be read.
    static SanitizerReport readFile(const std::filesystem::path& file, CheckTool tool, const PathMap& mapPath = {});
};

} // namespace kw
