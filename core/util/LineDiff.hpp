#pragma once
// A line-by-line difference of two texts (longest common subsequence), for showing
// what changed in a kernel between two runs.
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct DiffLine {
    enum class Kind { Same, Removed, Added };
    Kind kind = Kind::Same;
    std::string text;
    int oldLine = 0, newLine = 0; // 1-based; 0 where the line is not in that text
};

class LineDiff {
public:
    // Texts longer than maxLines lines are compared as one removed and one added block.
    static constexpr std::size_t maxLines = 5000;
    static std::vector<DiffLine> compare(std::string_view before, std::string_view after);
    static bool identical(const std::vector<DiffLine>& diff);
};

} // namespace kw
