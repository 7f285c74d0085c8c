#pragma once
// Shared by the fuzz targets: the input as text, and the rule that kw::Error (a
// refused input) is an answer while anything else escaping is a finding.
#include "util/Error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kw::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

// Runs `f`; refusals (kw::Error) are fine, every other exception aborts (libFuzzer
// reports the input).
template <class F> void refusalsOnly(F&& f)
{
    try {
        f();
    } catch (const kw::Error&) {
    }
}

} // namespace kw::fuzz
