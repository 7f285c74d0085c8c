#pragma once
// Scalar types, state spaces and fixed fake address windows of the PTX simulator.
#include <cstdint>
#include <string_view>

namespace kw::sim {

enum class PtxType : std::uint8_t {
    None,
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
    Pred,
};

enum class Space : std::uint8_t { Generic, Global, Shared, Local, Const, Param };

PtxType parsePtxType(std::string_view s); // "f32" -> F32, None when not a type
int sizeOf(PtxType t);                    // bytes; Pred counts as 1
bool isSigned(PtxType t);
bool isFloat(PtxType t);
const char* spaceName(Space s);

// Generic addresses of the per-block shared and per-thread local windows. Global
// allocations live far above, at addresses that look like device pointers.
inline constexpr std::uint64_t kSharedWindow = 0x0000100000000000ull;
inline constexpr std::uint64_t kLocalWindow = 0x0000200000000000ull;
inline constexpr std::uint64_t kWindowSize = 0x0000000100000000ull;
inline constexpr std::uint64_t kGlobalBase = 0x00007f0000000000ull;

} // namespace kw::sim
