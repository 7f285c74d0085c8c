#pragma once
// A scalar kernel argument as the bytes of its C type.
#include "data/DType.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace kw {

// Integers must be whole and in the type's range; floats must be finite-or-inf/NaN
// and not overflow a finite value. f16/bf16 round to nearest even. Throws
// kw::Error(Document) naming `field`: `args[2] (n): 300 is out of range for i8 (-128..127)`.
std::vector<std::byte> packScalar(DType type, double value, const std::string& field);

// As above, but an integer type given a plain integer literal (`18446744073709551615`,
// `-5`) takes it exactly: 64-bit values above 2^53 do not survive a double.
std::vector<std::byte> packScalar(DType type, const std::string& text, double value, const std::string& field);

} // namespace kw
