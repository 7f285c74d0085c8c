#include "util/PlainFileName.hpp"

#include <algorithm>
#include <cctype>

namespace kw {

namespace {

constexpr std::size_t kMostBytes = 255; // NAME_MAX on Linux and macOS, a component on Windows
constexpr std::size_t kQuotedBytes = 80;

bool isControl(unsigned char c) { return c < 0x20 || c == 0x7f; }

// Windows treats "CON", "con.npy" and "Con .tar.gz" alike: the part before the first dot,
// without trailing spaces, names the device whatever follows.
bool isWindowsDevice(std::string_view name)
{
    std::string_view stem = name.substr(0, name.find('.'));
    while (!stem.empty() && stem.back() == ' ')
        stem.remove_suffix(1);
    std::string upper(stem);
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    for (const char* device : {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"})
        if (upper == device)
            return true;
    // COM0-COM9 and LPT0-LPT9, also with the superscript digits ¹ ² ³ (UTF-8) Windows counts as digits.
    if (upper.rfind("COM", 0) != 0 && upper.rfind("LPT", 0) != 0)
        return false;
    const std::string_view digit = std::string_view(upper).substr(3);
    return (digit.size() == 1 && std::isdigit(static_cast<unsigned char>(digit[0]))) || digit == "\xC2\xB9"
        || digit == "\xC2\xB2" || digit == "\xC2\xB3";
}

} // namespace

std::optional<std::string> PlainFileName::problem(std::string_view name)
{
    if (name.empty())
        return "it is empty";
    if (name.size() > kMostBytes)
        return "it is longer than " + std::to_string(kMostBytes) + " bytes";
    if (name == "." || name == "..")
        return "it names a folder, not a file";
    for (const char c : name) {
        if (c == '/' || c == '\\')
            return std::string("it contains '") + c + "', a path separator";
        if (c == '\0')
            return "it contains a NUL character";
        if (isControl(static_cast<unsigned char>(c)))
            return "it contains a control character";
        if (std::string_view("<>:\"|?*").find(c) != std::string_view::npos)
            return std::string("it contains '") + c + "', which Windows does not allow in a file name";
    }
    if (name.back() == '.' || name.back() == ' ')
        return "it ends in a dot or a space, which Windows drops";
    if (isWindowsDevice(name))
        return "it is a device name on Windows";
    return std::nullopt;
}

std::string PlainFileName::quoted(std::string_view name)
{
    static const char* hex = "0123456789abcdef";
    std::string out = "\"";
    for (const char c : name.substr(0, kQuotedBytes)) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (isControl(u)) {
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    out += '"';
    if (name.size() > kQuotedBytes)
        out += " (cut after " + std::to_string(kQuotedBytes) + " of its " + std::to_string(name.size()) + " bytes)";
    return out;
}

} // namespace kw
