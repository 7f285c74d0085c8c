#include "sim/PtxLexer.hpp"

#include "util/Error.hpp"

namespace kw::sim::ptx {

[[noreturn]] void fail(const Token& t, const std::string& what)
{
    throw Error(ErrorCategory::Simulator,
                "PTX parse error at PTX line " + std::to_string(t.line) + " near '" + t.text + "': " + what);
}

std::uint64_t checkedProduct(std::uint64_t a, std::uint64_t b, const Token& t, const char* what)
{
    std::uint64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        fail(t, std::string(what) + " overflows 64 bits");
    return r;
}

std::uint64_t alignUp(std::uint64_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

std::int64_t wrappingAdd(std::int64_t a, std::uint64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + b);
}

} // namespace kw::sim::ptx
