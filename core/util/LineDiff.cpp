#include "util/LineDiff.hpp"
#include "util/Text.hpp"

#include <algorithm>

namespace kw {

namespace {
// The text's lines, a final newline ending the last line rather than starting an empty one.
std::vector<std::string_view> lines(std::string_view s)
{
    std::vector<std::string_view> v = splitLines(s);
    if (v.back().empty())
        v.pop_back();
    return v;
}
} // namespace

std::vector<DiffLine> LineDiff::compare(std::string_view before, std::string_view after)
{
    const std::vector<std::string_view> a = lines(before), b = lines(after);
    std::vector<DiffLine> out;
    // Common head and tail need no table; most edits between two runs are small.
    std::size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    std::size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    for (std::size_t i = 0; i < head; ++i)
        out.push_back({DiffLine::Kind::Same, std::string(a[i]), int(i + 1), int(i + 1)});
    const std::size_t n = a.size() - head - tail, m = b.size() - head - tail;
    if (n > maxLines || m > maxLines) {
        for (std::size_t i = 0; i < n; ++i)
            out.push_back({DiffLine::Kind::Removed, std::string(a[head + i]), int(head + i + 1), 0});
        for (std::size_t j = 0; j < m; ++j)
            out.push_back({DiffLine::Kind::Added, std::string(b[head + j]), 0, int(head + j + 1)});
    } else {
        // lcs[i][j]: the longest common subsequence of a's middle from i and b's from j.
        std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                lcs[i][j] = a[head + i] == b[head + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
        std::size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[head + i] == b[head + j]) {
                out.push_back({DiffLine::Kind::Same, std::string(a[head + i]), int(head + i + 1), int(head + j + 1)});
                ++i, ++j;
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                // Removals first, so a changed line reads as the old one, then the new.
                out.push_back({DiffLine::Kind::Removed, std::string(a[head + i]), int(head + i + 1), 0});
                ++i;
            } else {
                out.push_back({DiffLine::Kind::Added, std::string(b[head + j]), 0, int(head + j + 1)});
                ++j;
            }
        }
    }
    for (std::size_t k = 0; k < tail; ++k) {
        const std::size_t ia = a.size() - tail + k, ib = b.size() - tail + k;
        out.push_back({DiffLine::Kind::Same, std::string(a[ia]), int(ia + 1), int(ib + 1)});
    }
    return out;
}

bool LineDiff::identical(const std::vector<DiffLine>& diff)
{
    return std::all_of(diff.begin(), diff.end(), [](const DiffLine& d) { return d.kind == DiffLine::Kind::Same; });
}

} // namespace kw
