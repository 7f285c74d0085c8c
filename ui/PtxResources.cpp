#include "PtxResources.hpp"

#include <regex>

namespace kw {

PtxResources PtxResources::parse(std::string_view ptx, std::string_view loweredName)
{
    PtxResources r;
    const std::string text(ptx);
    std::size_t pos = 0;
    while ((pos = text.find(".entry ", pos)) != std::string::npos) {
        const std::size_t nameStart = pos + 7;
        const std::size_t nameEnd = text.find_first_of("( \n", nameStart);
        if (loweredName.empty() || text.compare(nameStart, nameEnd - nameStart, loweredName) == 0)
            break;
        pos = nameEnd;
    }
    if (pos == std::string::npos)
        return r;
    r.found = true;
    // Module-scope .shared variables sit before the entries; count those too,
    // since a kernel uses at most what the module declares.
    const std::size_t bodyEnd = text.find("\n}", pos);
    const std::string body = text.substr(pos, bodyEnd == std::string::npos ? std::string::npos : bodyEnd - pos);
    const std::string module = text.substr(0, pos);

    static const std::regex shared(R"(\.shared\s+(?:\.align\s+\d+\s+)?\.\w+\s+[\w$]+\[(\d+)\])");
    for (const std::string* s : {&module, &body})
        for (auto it = std::sregex_iterator(s->begin(), s->end(), shared); it != std::sregex_iterator(); ++it)
            r.staticSharedBytes += std::stoull((*it)[1]);
    static const std::regex local(R"(\.local\s+(?:\.align\s+\d+\s+)?\.\w+\s+[\w$]+\[(\d+)\])");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), local); it != std::sregex_iterator(); ++it)
        r.localBytes += std::stoull((*it)[1]);
    static const std::regex reg(R"(\.reg\s+\.\w+\s+%\w+<(\d+)>)");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), reg); it != std::sregex_iterator(); ++it)
        r.virtualRegisters += std::stoi((*it)[1]);
    static const std::regex maxntid(R"(\.maxntid\s+(\d+)(?:,\s*(\d+))?(?:,\s*(\d+))?)");
    std::smatch m;
    if (std::regex_search(body, m, maxntid)) {
        int v = std::stoi(m[1]);
        if (m[2].matched) v *= std::stoi(m[2]);
        if (m[3].matched) v *= std::stoi(m[3]);
        r.maxThreads = v;
    }
    return r;
}

} // namespace kw
