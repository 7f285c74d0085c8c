#include "compile/PtxResources.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace kw {

namespace {
std::size_t typeBytes(const std::string& type)
{
    // .b8 .u16 .s32 .f64 .bf16 ...: the trailing number is the width in bits.
    std::size_t i = type.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(type[i - 1])))
        --i;
    if (i == type.size())
        return type == ".pred" ? 1 : 4;
    return std::max<std::size_t>(1, std::stoul(type.substr(i)) / 8);
}

// Elements of "name[4][8]" (1 without brackets, 0 for "name[]").
std::size_t arrayElements(const std::string& dims)
{
    static const std::regex dim(R"(\[(\d*)\])");
    std::size_t n = 1;
    for (auto it = std::sregex_iterator(dims.begin(), dims.end(), dim); it != std::sregex_iterator(); ++it) {
        const std::string d = (*it)[1];
        if (d.empty())
            return 0;
        n *= std::stoull(d);
    }
    return n;
}
} // namespace

std::vector<PtxResources> PtxResources::parse(std::string_view ptx)
{
    static const std::regex entryRe(R"(\.entry\s+([A-Za-z_$.%][\w$.%]*))");
    static const std::regex regRe(R"(^\s*\.reg\s+(?:\.v\d\s+)?(\.\w+)\s+[%\w$]+(?:<(\d+)>)?)");
    static const std::regex varRe(
        R"(^\s*(\.extern\s+|\.visible\s+|\.weak\s+)?\.(shared|local|const|global)\s+(?:\.align\s+\d+\s+)?(?:\.v\d\s+)?(\.\w+)\s+[\w$.%]+((?:\[\d*\])*))");
    static const std::regex paramRe(R"(\.param\s+(?:\.align\s+\d+\s+)?\.\w+)");

    PtxResources module;
    std::vector<PtxResources> entries;
    PtxResources* current = nullptr;
    int depth = 0;
    bool inHeader = false; // between ".entry name(" and its body's "{"
    bool inComment = false;

    std::istringstream in{std::string(ptx)};
    std::string line;
    while (std::getline(in, line)) {
        // Strip comments so commented-out declarations do not count.
        std::string code;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (inComment) {
                if (line.compare(i, 2, "*/") == 0) {
                    inComment = false;
                    ++i;
                }
            } else if (line.compare(i, 2, "/*") == 0) {
                inComment = true;
                ++i;
            } else if (line.compare(i, 2, "//") == 0) {
                break;
            } else {
                code += line[i];
            }
        }
        std::smatch m;
        if (std::regex_search(code, m, entryRe)) {
            entries.push_back({});
            entries.back().entry = m[1];
            current = &entries.back();
            inHeader = true;
            depth = 0;
        }
        if (current && inHeader) {
            for (auto it = std::sregex_iterator(code.begin(), code.end(), paramRe); it != std::sregex_iterator(); ++it)
                ++current->params;
        }
        PtxResources* target = current && !inHeader && depth > 0 ? current : &module;
        if (std::regex_search(code, m, regRe) && target != &module) {
            const std::string type = m[1];
            const int count = m[2].matched ? std::stoi(m[2]) : 1;
            target->registers[type] += count;
            if (type != ".pred")
                target->registers32 += count * int(typeBytes(type) > 4 ? 2 : 1);
        } else if (std::regex_search(code, m, varRe)) {
            const std::string space = m[2], type = m[3];
            const bool external = m[1].matched && std::string(m[1]).find("extern") != std::string::npos;
            const std::size_t n = arrayElements(m[4]);
            const std::size_t bytes = n * typeBytes(type);
            if (space == "shared") {
                if (external || n == 0)
                    target->dynamicShared = true;
                else
                    target->sharedBytes += bytes;
            } else if (space == "local") {
                target->localBytes += bytes;
            } else if (space == "const") {
                target->constBytes += bytes;
            }
        }
        for (char c : code) {
            if (c == '{') {
                if (current && inHeader)
                    inHeader = false;
                ++depth;
            } else if (c == '}') {
                if (--depth == 0 && current && !inHeader)
                    current = nullptr;
            }
        }
    }
    if (module.sharedBytes || module.constBytes || module.localBytes || module.dynamicShared)
        entries.insert(entries.begin(), module);
    return entries;
}

} // namespace kw
