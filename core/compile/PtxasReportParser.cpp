#include "compile/PtxasReportParser.hpp"
#include "util/Text.hpp"

#include <charconv>
#include <string>

namespace kw {

namespace {

// The number at the start of `s` ("24 registers" -> 24), or -1.
long long leadingNumber(std::string_view s)
{
    long long v = -1;
    s = trim(s);
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

// Calls f(item) for each comma-separated item of `s`, trimmed.
template <typename F> void forEachItem(std::string_view s, F f)
{
    while (!s.empty()) {
        const std::size_t comma = s.find(',');
        f(trim(s.substr(0, comma)));
        if (comma == std::string_view::npos)
            break;
        s.remove_prefix(comma + 1);
    }
}

bool contains(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

// "Compiling entry function 'NAME' for 'ARCH'" -> {NAME, ARCH}.
bool entryHeader(std::string_view text, std::string& name, std::string& arch)
{
    static constexpr std::string_view prefix = "Compiling entry function '";
    if (text.substr(0, prefix.size()) != prefix)
        return false;
    text.remove_prefix(prefix.size());
    const std::size_t end = text.find('\'');
    if (end == std::string_view::npos)
        return false;
    name = std::string(text.substr(0, end));
    text.remove_prefix(end + 1);
    const std::size_t a = text.find('\''), b = text.rfind('\'');
    arch = a != std::string_view::npos && b > a ? std::string(text.substr(a + 1, b - a - 1)) : std::string();
    return true;
}

} // namespace

std::vector<KernelResources> parsePtxasReport(std::string_view log)
{
    std::vector<KernelResources> out;
    // "Function properties for NAME" precedes the stack line of NAME, which may be a
    // device function rather than the entry being compiled.
    std::string propertiesOf;
    while (!log.empty()) {
        const std::size_t nl = log.find('\n');
        std::string_view line = log.substr(0, nl);
        log.remove_prefix(nl == std::string_view::npos ? log.size() : nl + 1);
        if (line.substr(0, 5) != "ptxas")
            continue;
        line.remove_prefix(5);
        const std::size_t colon = line.find(':');
        const std::string_view word = trim(line.substr(0, colon == std::string_view::npos ? 0 : colon));
        if (word == "info") {
            const std::string_view text = trim(line.substr(colon + 1));
            std::string name, arch;
            if (entryHeader(text, name, arch)) {
                out.push_back(KernelResources{name, arch});
                propertiesOf.clear();
            } else if (text.substr(0, 24) == "Function properties for ") {
                propertiesOf = std::string(trim(text.substr(24)));
            } else if (text.substr(0, 5) == "Used " && !out.empty()) {
                KernelResources& k = out.back();
                forEachItem(text.substr(5), [&](std::string_view item) {
                    if (item.substr(0, 5) == "used ")
                        item.remove_prefix(5);
                    const long long v = leadingNumber(item);
                    if (v < 0)
                        return;
                    if (contains(item, "registers"))
                        k.registers = int(v);
                    else if (contains(item, "barriers"))
                        k.barriers = int(v);
                    else if (contains(item, "bytes smem"))
                        k.sharedBytes = std::size_t(v);
                    else if (contains(item, "bytes cmem[0]"))
                        k.constantBytes = std::size_t(v);
                });
            }
        } else if (word.empty() && contains(line, "bytes stack frame")) {
            // "ptxas         .     8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
            if (out.empty() || propertiesOf != out.back().entry)
                continue;
            KernelResources& k = out.back();
            std::string_view items = line.substr(line.find('.') + 1);
            forEachItem(items, [&](std::string_view item) {
                const long long v = leadingNumber(item);
                if (v < 0)
                    return;
                if (contains(item, "stack frame"))
                    k.stackBytes = std::size_t(v);
                else if (contains(item, "spill stores"))
                    k.spillStoreBytes = std::size_t(v);
                else if (contains(item, "spill loads"))
                    k.spillLoadBytes = std::size_t(v);
            });
        }
    }
    return out;
}

} // namespace kw
