#include "sim/PtxTypes.hpp"

namespace kw::sim {

PtxType parsePtxType(std::string_view s)
{
    struct Entry {
        std::string_view name;
        PtxType type;
    };
    static constexpr Entry table[] = {
        {"b8", PtxType::B8},   {"b16", PtxType::B16},     {"b32", PtxType::B32},   {"b64", PtxType::B64},
        {"u8", PtxType::U8},   {"u16", PtxType::U16},     {"u32", PtxType::U32},   {"u64", PtxType::U64},
        {"s8", PtxType::S8},   {"s16", PtxType::S16},     {"s32", PtxType::S32},   {"s64", PtxType::S64},
        {"f16", PtxType::F16}, {"f16x2", PtxType::F16x2}, {"bf16", PtxType::BF16}, {"bf16x2", PtxType::BF16x2},
        {"f32", PtxType::F32}, {"f64", PtxType::F64},     {"pred", PtxType::Pred},
    };
    for (const auto& e : table)
        if (e.name == s)
            return e.type;
    return PtxType::None;
}

int sizeOf(PtxType t)
{
    switch (t) {
    case PtxType::B8:
    case PtxType::U8:
    case PtxType::S8:
    case PtxType::Pred: return 1;
    case PtxType::B16:
    case PtxType::U16:
    case PtxType::S16:
    case PtxType::F16:
    case PtxType::BF16: return 2;
    case PtxType::B32:
    case PtxType::U32:
    case PtxType::S32:
    case PtxType::F32:
    case PtxType::F16x2:
    case PtxType::BF16x2: return 4;
    case PtxType::B64:
    case PtxType::U64:
    case PtxType::S64:
    case PtxType::F64: return 8;
    case PtxType::None: return 0;
    }
    return 0;
}

bool isSigned(PtxType t) { return t == PtxType::S8 || t == PtxType::S16 || t == PtxType::S32 || t == PtxType::S64; }

bool isFloat(PtxType t)
{
    return t == PtxType::F16 || t == PtxType::F16x2 || t == PtxType::BF16 || t == PtxType::BF16x2 || t == PtxType::F32
        || t == PtxType::F64;
}

const char* spaceName(Space s)
{
    switch (s) {
    case Space::Generic: return "generic";
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Const: return "const";
    case Space::Param: return "param";
    }
    return "?";
}

} // namespace kw::sim
