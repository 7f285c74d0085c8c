#pragma once
// What one block printed with device printf: its text, and where each call's text
// begins and which thread printed it. A run joins the texts; a debugger tags each
// line with its thread (the compiler's printf tags are not needed for that).
#include <cstdint>
#include <string>
#include <vector>

namespace kw::sim {

struct PrintfRecord {
    std::size_t begin = 0;    // in BlockPrintf::text
    std::uint32_t thread = 0; // linear in the block, x fastest
};

struct BlockPrintf {
    std::uint64_t block = 0; // linear, x fastest
    std::string text;
    std::vector<PrintfRecord> records; // in the order they were printed

    bool empty() const { return text.empty(); }
    void add(std::uint32_t thread, const std::string& printed)
    {
        records.push_back({text.size(), thread});
        text += printed;
    }
    void clear()
    {
        text.clear();
        records.clear();
    }
};

} // namespace kw::sim
