#include "sim/DevicePrintf.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace kw::sim {

std::optional<std::string> readDeviceString(std::uint64_t address, const DeviceReader& read, std::size_t limit)
{
    std::string s;
    for (std::size_t i = 0; i < limit; ++i) {
        char c;
        if (!read(address + i, 1, &c))
            return std::nullopt;
        if (c == '\0')
            return s;
        s += c;
    }
    return s;
}

std::optional<std::string> formatDevicePrintf(std::uint64_t format, std::uint64_t args, const DeviceReader& read,
                                              int& argCount)
{
    const auto fmtText = readDeviceString(format, read);
    if (!fmtText)
        return std::nullopt;
    const std::string& f = *fmtText;
    std::string out;
    std::uint64_t offset = 0;
    argCount = 0;
    auto fetch = [&](std::uint32_t size, void* dst) {
        offset = (offset + size - 1) / size * size;
        const bool ok = args != 0 && read(args + offset, size, dst);
        offset += size;
        ++argCount;
        if (!ok)
            std::memset(dst, 0, size);
    };
    char buf[512];
    for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] != '%') {
            out += f[i];
            continue;
        }
        if (i + 1 < f.size() && f[i + 1] == '%') {
            out += '%';
            ++i;
            continue;
        }
        // %[flags][width][.precision][length]conversion
        std::size_t j = i + 1;
        while (j < f.size() && std::strchr("-+ #0", f[j]))
            ++j;
        std::string spec = f.substr(i, j - i);
        // Width and precision are clamped to what the line can hold: %999999999d would
        // otherwise pad for seconds, and %.999999999f allocate gigabytes, outside the
        // launch's time limit.
        auto number = [&] {
            std::size_t v = 0;
            bool any = false;
            while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j]))) {
                v = std::min<std::size_t>(v * 10 + std::size_t(f[j++] - '0'), kMaxPrintfField);
                any = true;
            }
            if (any)
                spec += std::to_string(v);
        };
        number();
        if (j < f.size() && f[j] == '.') {
            spec += f[j++];
            number();
        }
        std::string length;
        while (j < f.size() && std::strchr("hlLzjt", f[j]))
            length += f[j++];
        if (j >= f.size()) {
            out += f.substr(i);
            break;
        }
        const char conv = f[j];
        const bool wide = length == "l" || length == "ll" || length == "z" || length == "j" || length == "t";
        int n = 0;
        switch (conv) {
        case 'd':
        case 'i': {
            std::int64_t v = 0;
            if (wide)
                fetch(8, &v);
            else {
                std::int32_t x;
                fetch(4, &x);
                v = x;
            }
            if (length == "h")
                v = std::int16_t(v);
            if (length == "hh")
                v = std::int8_t(v);
            n = std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), static_cast<long long>(v));
            break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            std::uint64_t v = 0;
            if (wide)
                fetch(8, &v);
            else {
                std::uint32_t x;
                fetch(4, &x);
                v = x;
            }
            if (length == "h")
                v = std::uint16_t(v);
            if (length == "hh")
                v = std::uint8_t(v);
            n = std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), static_cast<unsigned long long>(v));
            break;
        }
        case 'c': {
            std::int32_t v;
            fetch(4, &v);
            n = std::snprintf(buf, sizeof buf, (spec + 'c').c_str(), v);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            double v;
            fetch(8, &v);
            n = std::snprintf(buf, sizeof buf, (spec + conv).c_str(), v);
            break;
        }
        case 'p': {
            std::uint64_t v;
            fetch(8, &v);
            n = std::snprintf(buf, sizeof buf, (spec + 'p').c_str(), reinterpret_cast<void*>(v));
            break;
        }
        case 's': {
            std::uint64_t p;
            fetch(8, &p);
            const auto s = p ? readDeviceString(p, read) : std::optional<std::string>("(null)");
            n = std::snprintf(buf, sizeof buf, (spec + 's').c_str(), s ? s->c_str() : "<bad string pointer>");
            if (n >= int(sizeof buf)) {
                out += s ? *s : std::string();
                n = 0;
            }
            break;
        }
        default:
            out += f.substr(i, j - i + 1);
            i = j;
            continue;
        }
        if (n > 0)
            out.append(buf, std::min<std::size_t>(std::size_t(n), sizeof buf - 1));
        i = j;
    }
    return out;
}

} // namespace kw::sim
