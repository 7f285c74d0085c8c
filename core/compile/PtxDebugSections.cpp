#include "compile/PtxDebugSections.hpp"

#include "compile/PtxTokens.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kw::dwarf {

namespace {

[[noreturn]] void fail(const DebugSection& s, const ptx::Token& at, const std::string& what)
{
    throw Error(ErrorCategory::Simulator,
                fmt::format("debug information: {} at PTX line {} in {}", what, at.line, s.name));
}

std::uint8_t directiveSize(const std::string& d)
{
    if (d == ".b8")
        return 1;
    if (d == ".b16")
        return 2;
    if (d == ".b32")
        return 4;
    if (d == ".b64")
        return 8;
    return 0;
}

// One value of a byte directive: a number, or a symbol with an optional +N.
void readValue(const std::vector<ptx::Token>& t, std::size_t& i, std::uint8_t size, DebugSection& s)
{
    const ptx::Token& v = t[i];
    if (v.kind == ptx::Token::Number) {
        const std::uint64_t n = ptx::parseUnsigned(v.text);
        if (size < 8 && n >> (8 * size))
            fail(s, v, fmt::format("{} does not fit in {} bytes", v.text, size));
        for (int k = 0; k < size; ++k)
            s.bytes.push_back(std::uint8_t(n >> (8 * k)));
        ++i;
        return;
    }
    if (v.kind != ptx::Token::Ident)
        fail(s, v, fmt::format("unexpected '{}'", v.text));
    if (size < 4)
        fail(s, v, fmt::format("symbol {} in a {}-byte value", v.text, size));
    SymbolReference r{s.bytes.size(), size, v.text, 0};
    ++i;
    if (t[i].kind == ptx::Token::Punct && t[i].text == "+") {
        if (t[i + 1].kind != ptx::Token::Number)
            fail(s, t[i + 1], "expected a number after '+'");
        r.addend = ptx::parseUnsigned(t[i + 1].text);
        i += 2;
    }
    s.bytes.resize(s.bytes.size() + size, 0);
    s.references.push_back(std::move(r));
}

} // namespace

const SymbolReference* DebugSection::referenceAt(std::size_t offset) const
{
    const auto it = std::lower_bound(references.begin(), references.end(), offset,
                                     [](const SymbolReference& r, std::size_t o) { return r.offset < o; });
    return it != references.end() && it->offset == offset ? &*it : nullptr;
}

PtxDebugSections PtxDebugSections::read(std::string_view ptx)
{
    PtxDebugSections out;
    const std::vector<ptx::Token> t = ptx::tokenize(ptx);
    for (std::size_t i = 0; i + 2 < t.size(); ++i) {
        if (t[i].kind != ptx::Token::Ident || t[i].text != ".section")
            continue;
        DebugSection s;
        s.name = t[i + 1].text;
        if (t[i + 2].text != "{")
            fail(s, t[i + 2], "expected '{'");
        i += 3;
        while (t[i].kind != ptx::Token::End && t[i].text != "}") {
            const std::uint8_t size = directiveSize(t[i].text);
            if (size == 0)
                fail(s, t[i], fmt::format("unknown directive '{}'", t[i].text));
            ++i;
            readValue(t, i, size, s);
            while (t[i].kind == ptx::Token::Punct && t[i].text == ",") {
                ++i;
                readValue(t, i, size, s);
            }
            if (t[i].kind == ptx::Token::Punct && t[i].text == ";")
                ++i;
        }
        if (t[i].kind == ptx::Token::End)
            fail(s, t[i], "unterminated section");
        if (s.name.starts_with(".debug_"))
            out.sections_.push_back(std::move(s));
    }
    return out;
}

const DebugSection* PtxDebugSections::find(std::string_view name) const
{
    for (const DebugSection& s : sections_)
        if (s.name == name)
            return &s;
    return nullptr;
}

} // namespace kw::dwarf
