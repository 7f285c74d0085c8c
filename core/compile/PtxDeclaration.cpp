#include "compile/PtxDeclaration.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace kw::ptx {

namespace {

bool isSpace(std::string_view w)
{
    return w == ".reg" || w == ".param" || w == ".shared" || w == ".local" || w == ".const" || w == ".global";
}

bool isLinkage(std::string_view w) { return w == ".extern" || w == ".visible" || w == ".weak" || w == ".common"; }

// Reads over a range that may end before the tokens do (a statement within a body).
struct Cursor {
    const std::vector<Token>& tokens;
    std::size_t end;
    std::size_t at;

    // The token k places on, or nullptr past the range (the End token counts as past it).
    const Token* peek(std::size_t k = 0) const
    {
        const std::size_t i = at + k;
        return i < end && tokens[i].kind != Token::End ? &tokens[i] : nullptr;
    }
    bool punct(const char* text, std::size_t k = 0) const
    {
        const Token* t = peek(k);
        return t && t->kind == Token::Punct && t->text == text;
    }
    bool number(std::size_t k = 0) const { return peek(k) && peek(k)->kind == Token::Number; }
};

} // namespace

bool PtxDeclaration::Name::unsized() const
{
    for (const Dimension& d : dims)
        if (d.unsized)
            return true;
    return false;
}

std::optional<std::uint64_t> PtxDeclaration::Name::elements() const
{
    std::uint64_t n = 1;
    for (const Dimension& d : dims)
        if (__builtin_mul_overflow(n, d.unsized ? 0 : d.size, &n))
            return std::nullopt;
    return n;
}

std::size_t PtxDeclaration::typeBytes(std::string_view type)
{
    static constexpr std::array<std::pair<std::string_view, std::size_t>, 19> types{{
        {".b8", 1},   {".b16", 2},    {".b32", 4}, {".b64", 8}, {".u8", 1},   {".u16", 2}, {".u32", 4},
        {".u64", 8},  {".s8", 1},     {".s16", 2}, {".s32", 4}, {".s64", 8},  {".f16", 2}, {".f16x2", 4},
        {".bf16", 2}, {".bf16x2", 4}, {".f32", 4}, {".f64", 8}, {".pred", 1},
    }};
    for (const auto& [name, bytes] : types)
        if (name == type)
            return bytes;
    return 0;
}

std::size_t PtxDeclaration::elementBytes() const { return typeBytes(type) * std::size_t(vector); }

std::optional<std::uint64_t> PtxDeclaration::bytes(const Name& name) const
{
    std::uint64_t b;
    const auto n = name.elements();
    if (!n || __builtin_mul_overflow(*n, std::uint64_t(elementBytes()), &b))
        return std::nullopt;
    return b;
}

bool PtxDeclaration::startsDeclaration(const Token& t)
{
    return t.kind == Token::Ident && (isSpace(t.text) || isLinkage(t.text));
}

PtxDeclaration PtxDeclaration::read(const std::vector<Token>& tokens, std::size_t begin, std::size_t end)
{
    PtxDeclaration d;
    Cursor c{tokens, std::min(end, tokens.size()), begin};
    auto stop = [&](std::size_t at, std::string what) {
        // Reported at a token of the range even when reading ran past its end.
        d.end = std::min(at, c.end);
        d.problem = Problem{d.end < c.end || c.end == 0 ? d.end : c.end - 1, std::move(what)};
        return d;
    };
    // The directives before the name, in any order.
    for (; c.peek() && isDirective(*c.peek()); ++c.at) {
        const std::string& w = c.peek()->text;
        if (w == ".extern")
            d.isExtern = true;
        else if (w == ".visible")
            d.isVisible = true;
        else if (w == ".weak" || w == ".common")
            d.isWeak = true;
        else if (w == ".ptr")
            d.isPointer = true;
        else if (isSpace(w) && d.isPointer)
            d.pointeeSpace = w;
        else if (isSpace(w) && d.space.empty())
            d.space = w;
        else if (w == ".align") {
            if (!c.number(1))
                return stop(c.at + 1, "expected a number after .align");
            ++c.at;
            (d.isPointer ? d.pointeeAlign : d.align) = parseUnsigned(c.peek()->text);
            if (!d.isPointer)
                d.alignToken = c.at;
        } else if (w == ".v2" || w == ".v4" || w == ".v8")
            d.vector = w[2] - '0';
        else if (typeBytes(w))
            d.type = w;
        else if (w == ".attribute" && c.punct("(", 1)) {
            // ".attribute(.managed)": says how the variable is allocated, not what it holds.
            while (c.peek(1) && !c.punct(")", 1))
                ++c.at;
            ++c.at;
        }
        // Any other modifier says nothing of the layout.
    }
    for (;;) {
        const Token* t = c.peek();
        if (!t || t->kind != Token::Ident)
            return stop(c.at, "expected a name");
        Name n;
        n.text = t->text;
        n.token = c.at++;
        if (c.punct("<")) {
            if (!c.number(1) || !c.punct(">", 2))
                return stop(c.at + 1, "expected a register count in '<>'");
            n.registers = parseUnsigned(c.peek(1)->text);
            n.registersToken = c.at + 1;
            c.at += 3;
        }
        while (c.punct("[")) {
            if (c.punct("]", 1)) {
                n.dims.push_back({0, true, c.at});
                c.at += 2;
                continue;
            }
            if (!c.number(1))
                return stop(c.at + 1, "expected an array size");
            if (!c.punct("]", 2))
                return stop(c.at + 2, "expected ']'");
            n.dims.push_back({parseUnsigned(c.peek(1)->text), false, c.at + 1});
            c.at += 3;
        }
        d.names.push_back(std::move(n));
        // ".reg .b32 %r1, %r2": another name. In a parameter list the next parameter
        // starts with a directive instead.
        if (c.punct(",") && c.peek(1) && c.peek(1)->kind == Token::Ident && !isDirective(*c.peek(1))) {
            ++c.at;
            continue;
        }
        break;
    }
    d.end = c.at;
    if (c.punct("="))
        d.initialiser = c.at + 1;
    return d;
}

} // namespace kw::ptx
