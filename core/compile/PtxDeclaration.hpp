#pragma once
// One PTX declaration read from tokens: ".reg .b32 %r<12>", ".shared .align 4 .b8 tile[1024]",
// ".extern .shared .align 16 .b8 dyn[]", ".param .u64 .ptr .global .align 16 p". It reads what
// the declaration says and checks its shape; what it may cost (the limits) is the caller's,
// and so is how a problem is raised: the reader never throws.
#include "compile/PtxTokens.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kw::ptx {

struct PtxDeclaration {
    // One dimension of an array: "[16]", or "[]" (unsized: an .extern .shared array).
    struct Dimension {
        std::uint64_t size = 0;
        bool unsized = false;
        std::size_t token = 0; // the number (the '[' when unsized)
    };
    struct Name {
        std::string text;
        std::size_t token = 0;
        std::vector<Dimension> dims;
        std::optional<std::uint64_t> registers; // "%r<12>": twelve registers %r0..%r11
        std::size_t registersToken = 0;         // the 12

        bool unsized() const;
        // The product of the dimensions (1 without any, 0 when one is unsized); no value
        // when it overflows 64 bits.
        std::optional<std::uint64_t> elements() const;
    };
    struct Problem {
        std::size_t token = 0; // where it is, always a token of the range read
        std::string what;
    };

    std::string space; // ".reg", ".param", ".shared", ".local", ".const", ".global"; "" when none
    bool isExtern = false;
    bool isVisible = false;
    bool isWeak = false;
    std::optional<std::uint64_t> align;
    std::size_t alignToken = 0;
    // A parameter's ".ptr [.space] [.align N]": what it points to, not the parameter itself.
    bool isPointer = false;
    std::string pointeeSpace;
    std::optional<std::uint64_t> pointeeAlign;
    int vector = 1;          // .v2, .v4, .v8
    std::string type;        // ".f32", ".b8", ".pred"; "" when none is written
    std::vector<Name> names; // at least one when there is no problem
    // Token indices, into the tokens read.
    std::size_t initialiser = npos; // the first token after '='
    std::size_t end = 0;            // where reading stopped: ';', ',', ')', '=', or the range's end
    std::optional<Problem> problem; // the shape is wrong; the fields hold what was read before it

    static constexpr std::size_t npos = ~std::size_t(0);

    // Reads the declaration starting at tokens[begin], not past tokens[end - 1].
    static PtxDeclaration read(const std::vector<Token>& tokens, std::size_t begin, std::size_t end);

    // The bytes of one element: the type's times the vector's width (0 without a type).
    std::size_t elementBytes() const;
    // The bytes `name` takes (0 when unsized); no value when that overflows 64 bits.
    std::optional<std::uint64_t> bytes(const Name& name) const;
    // ".u16" -> 2, ".f16x2" -> 4, ".pred" -> 1; 0 for a word that is not a PTX type.
    static std::size_t typeBytes(std::string_view type);
    // A state space (".reg" ... ".global") or a linkage (".extern", ".visible", ".weak"):
    // a statement that starts with one is a declaration.
    static bool startsDeclaration(const Token& t);
};

} // namespace kw::ptx
