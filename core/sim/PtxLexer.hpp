#pragma once
// The simulator's statements over PTX tokens (compile/PtxTokens), the module limits, and
// the checks the parser applies while reading them.
#include "compile/PtxTokens.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kw::sim::ptx {

using kw::ptx::parseUnsigned;
using kw::ptx::Token;
using kw::ptx::tokenize;

// Throws kw::Error (Simulator) naming the PTX line of `t`.
[[noreturn]] void fail(const Token& t, const std::string& what);

// A statement's tokens. Malformed PTX (inline asm is user text) may end a statement
// anywhere: reading past its end is a parse error naming the line, never a crash.
struct Statement : std::vector<Token> {
    using std::vector<Token>::vector;
    const Token& operator[](std::size_t i) const
    {
        if (i >= size())
            fail(empty() ? Token{} : back(), "incomplete statement");
        return std::vector<Token>::operator[](i);
    }
};

// What the simulator accepts of one module: far above what compilers emit, low enough
// that a hostile declaration fails at once instead of exhausting memory.
constexpr std::uint64_t kMaxRegisters = std::uint64_t(1) << 18;     // virtual registers per kernel
constexpr std::uint64_t kMaxVariableBytes = std::uint64_t(1) << 30; // one .global/.const/.shared variable
constexpr std::size_t kMaxBlockDepth = 16; // nested { } blocks in a body (each saves the names in scope)
constexpr std::size_t kMaxInstructions = std::size_t(1) << 20;            // per kernel, its device functions inlined
constexpr std::uint64_t kMaxModuleVariableBytes = std::uint64_t(2) << 30; // all of a module's variables together
constexpr std::uint64_t kMaxParamBytes = 32764;                           // the kernel parameter space (CUDA 12.1+)
constexpr std::uint64_t kMaxAlign = 4096;
constexpr std::size_t kMaxFiles = 65535; // .file indices (stored in 16 bits)

// a * b, failing at `t` instead of wrapping around.
std::uint64_t checkedProduct(std::uint64_t a, std::uint64_t b, const Token& t, const char* what);
std::uint64_t alignUp(std::uint64_t v, std::uint32_t a);
// Addresses wrap modulo 2^64, as on the GPU; signed overflow would be undefined.
std::int64_t wrappingAdd(std::int64_t a, std::uint64_t b);

} // namespace kw::sim::ptx
