#include "util/ArchName.hpp"

#include <cctype>

namespace kw {

ArchName ArchName::parse(const std::string& name)
{
    ArchName a;
    std::string digits;
    if (name.rfind("sm_", 0) == 0) {
        a.real = true;
        digits = name.substr(3);
    } else if (name.rfind("compute_", 0) == 0) {
        digits = name.substr(8);
    } else {
        return {};
    }
    if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) {
        a.suffix = digits.substr(digits.size() - 1);
        digits.pop_back();
    }
    if (digits.empty() || digits.size() > 4)
        return {};
    for (char c : digits)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return {};
    a.number = std::stoi(digits);
    a.named = true;
    return a;
}

} // namespace kw
