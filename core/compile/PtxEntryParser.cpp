#include "compile/PtxEntryParser.hpp"

#include <cctype>
#include <charconv>
#include <string>

namespace kw {

namespace {

// PTX text without comments, split into words and the punctuation that matters here.
std::vector<std::string_view> ptxWords(std::string_view ptx, std::string& storage)
{
    storage.clear();
    storage.reserve(ptx.size());
    for (std::size_t i = 0; i < ptx.size(); ++i) {
        if (ptx[i] == '/' && i + 1 < ptx.size() && ptx[i + 1] == '/') {
            while (i < ptx.size() && ptx[i] != '\n')
                ++i;
            storage += '\n';
        } else if (ptx[i] == '/' && i + 1 < ptx.size() && ptx[i + 1] == '*') {
            std::size_t end = ptx.find("*/", i + 2);
            i = end == std::string_view::npos ? ptx.size() : end + 1;
            storage += ' ';
        } else {
            storage += ptx[i];
        }
    }
    std::vector<std::string_view> words;
    std::string_view s = storage;
    std::size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '(' || c == ')' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == ';') {
            words.push_back(s.substr(i, 1));
            ++i;
        } else {
            std::size_t b = i;
            while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))
                   && s.find_first_of("()[],{};", i) != i)
                ++i;
            words.push_back(s.substr(b, i - b));
        }
    }
    return words;
}

std::size_t typeSize(std::string_view type)
{
    // .u8 .s16 .b32 .f64 .pred ...
    if (type == ".pred")
        return 1;
    if (type.size() < 3)
        return 0;
    std::size_t bits = 0;
    auto digits = type.substr(2);
    std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    return bits / 8;
}

bool isScalarType(std::string_view w)
{
    if (w.size() < 3 || w[0] != '.')
        return false;
    char k = w[1];
    return (k == 'u' || k == 's' || k == 'b' || k == 'f') && std::isdigit(static_cast<unsigned char>(w[2]));
}

std::size_t toSize(std::string_view w)
{
    std::size_t v = 0;
    std::from_chars(w.data(), w.data() + w.size(), v);
    return v;
}

// Parses ".param .align 8 .b8 name[16]" or ".param .u64 .ptr .global .align 4 name".
PtxParam parseParam(const std::vector<std::string_view>& w, std::size_t begin, std::size_t end)
{
    PtxParam p;
    std::size_t elemSize = 0, count = 1, explicitAlign = 0;
    bool afterPtr = false, isArray = false;
    for (std::size_t i = begin; i < end; ++i) {
        std::string_view t = w[i];
        if (t == ".ptr" || t.rfind(".ptr.", 0) == 0)
            afterPtr = true; // a following .align is the pointee's
        if (t == ".align" && i + 1 < end) {
            if (!afterPtr)
                explicitAlign = toSize(w[i + 1]);
            ++i;
        } else if (t.find(".align") != std::string_view::npos && afterPtr) {
            // ".ptr.global.align" packs the pointee alignment into one word.
            ++i;
        } else if (isScalarType(t) || t == ".pred") {
            elemSize = typeSize(t);
        } else if (t == "[" && i + 1 < end) {
            count = toSize(w[i + 1]);
            isArray = true;
            ++i;
        }
    }
    p.size = elemSize * count;
    p.align = explicitAlign ? explicitAlign : elemSize;
    p.isPointerSized = !isArray && elemSize == 8;
    return p;
}

} // namespace

std::vector<PtxEntry> parsePtxEntries(std::string_view ptx)
{
    std::string storage;
    auto w = ptxWords(ptx, storage);
    std::vector<PtxEntry> entries;
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
        if (w[i] != ".entry")
            continue;
        PtxEntry e;
        e.name = std::string(w[i + 1]);
        std::size_t j = i + 2;
        if (j < w.size() && w[j] == "(") {
            ++j;
            std::size_t paramStart = j;
            for (; j < w.size() && w[j] != ")" && w[j] != "{"; ++j) {
                if (w[j] == ",") {
                    if (j > paramStart)
                        e.params.push_back(parseParam(w, paramStart, j));
                    paramStart = j + 1;
                }
            }
            if (j > paramStart)
                e.params.push_back(parseParam(w, paramStart, j));
        }
        entries.push_back(std::move(e));
        i = j;
    }
    return entries;
}

} // namespace kw
