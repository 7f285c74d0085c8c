#include "sim/OpcodeTable.hpp"

#include "sim/DecodeFunctions.hpp"

#include <algorithm>

namespace kw::sim {

namespace {

using T = PtxType;
constexpr TypeSet kInt
    = typeBits({T::S8, T::S16, T::S32, T::S64, T::U8, T::U16, T::U32, T::U64, T::B8, T::B16, T::B32, T::B64});
constexpr TypeSet kInt3264 = typeBits({T::S32, T::U32, T::B32, T::S64, T::U64, T::B64});
constexpr TypeSet kFloat = typeBits({T::F32, T::F64});
constexpr TypeSet kHalf = typeBits({T::F16, T::F16x2, T::BF16, T::BF16x2});
constexpr TypeSet kPred = typeBit(T::Pred);
constexpr TypeSet kAny = kInt | kFloat | kHalf | kPred;
// What atomics take: 16-bit (add on f16/bf16, cas, exch), 32- and 64-bit words.
constexpr TypeSet kAtomic
    = typeBits({T::B16, T::U16, T::S16, T::F16, T::BF16}) | kInt3264 | kFloat | typeBits({T::F16x2, T::BF16x2});

constexpr std::string_view kRound = "rn rz rm rp ftz sat";
constexpr std::string_view kCmp = "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan";

// One row per mnemonic, sorted by name. The modifiers are those the decode function
// (or the handler) acts on; others are accepted and ignored (cache hints, scopes, .approx).
constexpr OpcodeInfo kOpcodes[] = {
    //   name             shape               types                        modifiers decode             op
    {"abs", Shape::Unary, kInt | kFloat | kHalf, "ftz", decodeUnary, ArithOp::Abs},
    {"activemask", Shape::Dest, typeBit(T::B32), "", decodeActivemask},
    {"add", Shape::Binary, kInt | kFloat | kHalf, "rn rz rm rp ftz sat cc", decodeAddSub, ArithOp::Add},
    {"addc", Shape::Binary, kInt3264, "cc", decodeCarry},
    {"and", Shape::Binary, kInt | kPred, "", decodeBinary, ArithOp::And},
    {"applypriority", Shape::Ignored, 0, "", decodeNoEffect},
    {"atom", Shape::Atomic, kAtomic,
     "global shared add min max inc dec and or xor exch cas relaxed acquire release acq_rel v2 v4 v8", decodeAtomic},
    {"bar", Shape::Barrier, typeBits({T::U32, T::Pred}), "sync warp arrive red popc and or", decodeBarrier},
    {"barrier", Shape::Barrier, typeBits({T::U32, T::Pred}), "sync warp arrive red popc and or", decodeBarrier},
    {"bfe", Shape::Ternary, kInt, "", decodeBfe},
    {"bfi", Shape::Quaternary, kInt, "", decodeBfi},
    {"bfind", Shape::Unary, kInt, "shiftamt", decodeBfind, ArithOp::Bfind},
    {"bra", Shape::Label, 0, "", decodeBra},
    {"brev", Shape::Unary, kInt, "", decodeUnary, ArithOp::Brev},
    {"brkpt", Shape::None, 0, "", decodeNoEffect},
    {"brx", Shape::Label, 0, "idx", decodeRefused, ArithOp::None, true},
    {"clz", Shape::Unary, kInt, "", decodeCount, ArithOp::Clz},
    {"cnot", Shape::Unary, kInt, "", decodeUnary, ArithOp::Cnot},
    {"copysign", Shape::Binary, kFloat, "", decodeBinary, ArithOp::Copysign},
    {"cos", Shape::Unary, kFloat, kRound, decodeUnary, ArithOp::Cos},
    {"cp", Shape::AsyncCopy, 0,
     "async ca cg shared global commit_group wait_group wait_all mbarrier arrive noinc bulk prefetch", decodeCpAsync},
    {"cvt", Shape::Convert, kInt | kFloat | kHalf, "rn rz rm rp rni rzi rmi rpi rna ftz sat relu satfinite tf32",
     decodeCvt},
    {"cvta", Shape::Unary, typeBits({T::U32, T::U64}), "to global shared local const param", decodeCvta},
    {"discard", Shape::Ignored, 0, "", decodeNoEffect},
    {"div", Shape::Binary, kInt | kFloat, kRound, decodeBinary, ArithOp::Div},
    {"dp4a", Shape::Ternary, typeBits({T::S32, T::U32}), "", decodeDp4a},
    {"ex2", Shape::Unary, kFloat | kHalf, kRound, decodeUnary, ArithOp::Ex2},
    {"exit", Shape::None, 0, "", decodeExit},
    {"fence", Shape::None, 0, "proxy mbarrier_init op_restrict", decodeFence},
    {"fma", Shape::Ternary, kInt | kFloat | kHalf, "rn rz rm rp ftz sat relu hi wide", decodeMad, ArithOp::Mad},
    {"isspacep", Shape::Binary, 0, "", decodeRefused, ArithOp::None, true},
    {"ld", Shape::Load, kAny, "global shared local const param v2 v4 v8 volatile relaxed acquire", decodeLoad},
    {"ldmatrix", Shape::MatrixRows, typeBit(T::B16), "m8n8 x1 x2 x4 trans shared", decodeMatrixRows},
    {"ldu", Shape::Load, kAny, "global v2 v4 v8", decodeLoad},
    {"lg2", Shape::Unary, kFloat, kRound, decodeUnary, ArithOp::Lg2},
    {"lop3", Shape::TableImm, typeBit(T::B32), "", decodeLop3},
    {"mad", Shape::Ternary, kInt | kFloat | kHalf, "rn rz rm rp ftz sat lo hi wide cc", decodeMad, ArithOp::Mad},
    {"madc", Shape::Ternary, kInt3264, "lo hi cc", decodeCarry},
    {"match", Shape::Match, typeBits({T::B32, T::B64}), "sync any all", decodeMatch},
    {"max", Shape::Binary, kInt | kFloat | kHalf, "ftz NaN", decodeMinMax, ArithOp::Max},
    {"mbarrier", Shape::Mbarrier, typeBit(T::B64),
     "init inval arrive arrive_drop noComplete test_wait try_wait parity pending_count expect_tx complete_tx shared "
     "release acquire relaxed",
     decodeMbarrier},
    {"membar", Shape::None, 0, "proxy", decodeFence},
    {"min", Shape::Binary, kInt | kFloat | kHalf, "ftz NaN", decodeMinMax, ArithOp::Min},
    {"mma", Shape::MatrixMma, typeBits({T::F16, T::BF16, T::F32, T::F64, T::S8, T::U8, T::S32}),
     "row col m16n8k16 m16n8k8 m16n8k4 m16n8k32 m8n8k16 m8n8k4 tf32 satfinite", decodeMma},
    {"mov", Shape::Move, kAny, "", decodeMov},
    {"movmatrix", Shape::Unary, typeBit(T::B16), "m8n8 trans", decodeMovmatrix},
    {"mul", Shape::Binary, kInt | kFloat | kHalf, "rn rz rm rp ftz sat lo hi wide", decodeMul, ArithOp::Mul},
    {"nanosleep", Shape::Ignored, typeBit(T::U32), "", decodeNanosleep},
    {"neg", Shape::Unary, kInt | kFloat | kHalf, "ftz", decodeUnary, ArithOp::Neg},
    {"not", Shape::Unary, kInt | kPred, "", decodeUnary, ArithOp::Not},
    {"or", Shape::Binary, kInt | kPred, "", decodeBinary, ArithOp::Or},
    {"pmevent", Shape::Ignored, 0, "", decodeNoEffect},
    {"popc", Shape::Unary, kInt, "", decodeCount, ArithOp::Popc},
    {"prefetch", Shape::Ignored, 0, "", decodeNoEffect},
    {"prefetchu", Shape::Ignored, 0, "", decodeNoEffect},
    {"prmt", Shape::Ternary, typeBit(T::B32), "", decodePrmt},
    {"rcp", Shape::Unary, kFloat, kRound, decodeUnary, ArithOp::Rcp},
    {"red", Shape::Reduce, kAtomic, "global shared add min max inc dec and or xor exch cas relaxed release v2 v4 v8",
     decodeAtomic},
    {"redux", Shape::WarpReduce, kInt, "sync add min max and or xor", decodeRedux},
    {"rem", Shape::Binary, kInt, "", decodeBinary, ArithOp::Rem},
    {"ret", Shape::None, 0, "", decodeExit},
    {"rsqrt", Shape::Unary, kFloat, kRound, decodeUnary, ArithOp::Rsqrt},
    {"sad", Shape::Ternary, kInt, "", decodeTernary, ArithOp::Sad},
    {"selp", Shape::Select, kAny, "", decodeSelp},
    {"set", Shape::Binary, kInt | kFloat | kHalf, kCmp, decodeSetp},
    {"setp", Shape::Compare, kInt | kFloat | typeBits({T::F16, T::BF16}),
     "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or xor ftz", decodeSetp},
    {"shf", Shape::Ternary, typeBit(T::B32), "l r wrap clamp", decodeShf},
    {"shfl", Shape::Shuffle, typeBit(T::B32), "sync up down bfly idx", decodeShfl},
    {"shl", Shape::Binary, kInt, "", decodeShift, ArithOp::Shl},
    {"shr", Shape::Binary, kInt, "", decodeShift, ArithOp::Shr},
    {"sin", Shape::Unary, kFloat, kRound, decodeUnary, ArithOp::Sin},
    {"sqrt", Shape::Unary, kFloat, kRound, decodeUnary, ArithOp::Sqrt},
    {"st", Shape::Store, kAny, "global shared local const param v2 v4 v8 volatile relaxed release", decodeStore},
    {"stmatrix", Shape::MatrixRows, typeBit(T::B16), "m8n8 x1 x2 x4 trans shared", decodeMatrixRows},
    {"sub", Shape::Binary, kInt | kFloat | kHalf, "rn rz rm rp ftz sat cc", decodeAddSub, ArithOp::Sub},
    {"subc", Shape::Binary, kInt3264, "cc", decodeCarry},
    {"tanh", Shape::Unary, kFloat | kHalf, kRound, decodeUnary, ArithOp::Tanh},
    {"testp", Shape::Unary, kFloat, "finite infinite number notanumber normal subnormal", decodeTestp},
    {"trap", Shape::None, 0, "", decodeTrap},
    {"vote", Shape::Vote, typeBits({T::Pred, T::B32}), "sync all any uni ballot", decodeVote},
    {"wmma", Shape::Matrix, typeBits({T::F16, T::BF16, T::F32, T::F64, T::S8, T::U8, T::S32}),
     "load store mma row col m16n16k16 m32n8k16 m8n32k16 m16n16k8 m8n8k4 tf32 global shared satfinite", decodeWmma},
    {"xor", Shape::Binary, kInt | kPred, "", decodeBinary, ArithOp::Xor},
};

static_assert(std::ranges::is_sorted(kOpcodes, {}, &OpcodeInfo::name), "kOpcodes: keep the rows sorted by name");
static_assert(std::ranges::adjacent_find(kOpcodes, {}, &OpcodeInfo::name) == std::end(kOpcodes),
              "kOpcodes: one row per name");

} // namespace

const OpcodeInfo* findOpcode(std::string_view name)
{
    const auto it = std::ranges::lower_bound(kOpcodes, name, {}, &OpcodeInfo::name);
    return it != std::end(kOpcodes) && it->name == name ? &*it : nullptr;
}

std::span<const OpcodeInfo> supportedOpcodes() { return kOpcodes; }

bool listsModifier(const OpcodeInfo& row, std::string_view mod)
{
    std::string_view rest = row.modifiers;
    while (!rest.empty()) {
        const std::size_t space = rest.find(' ');
        if (rest.substr(0, space) == mod)
            return true;
        if (space == std::string_view::npos)
            break;
        rest.remove_prefix(space + 1);
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
    }
    return false;
}

std::string_view shapeText(Shape s)
{
    switch (s) {
    case Shape::None: return "";
    case Shape::Ignored: return "...";
    case Shape::Label: return "label";
    case Shape::Dest: return "d";
    case Shape::Unary: return "d, a";
    case Shape::Convert: return "d, a[, b]";
    case Shape::Binary: return "d, a, b";
    case Shape::Ternary: return "d, a, b, c";
    case Shape::Quaternary: return "d, a, b, c, e";
    case Shape::TableImm: return "d, a, b, c, imm";
    case Shape::Select: return "d, a, b, {!}c";
    case Shape::Compare: return "p[|q], a, b[, {!}c]";
    case Shape::Move: return "d, a | d, {a, ...} | {d, ...}, a";
    case Shape::Load: return "d | {d, ...}, [addr]";
    case Shape::Store: return "[addr], a | {a, ...}";
    case Shape::Atomic: return "d, [addr], a[, b]";
    case Shape::Reduce: return "[addr], a";
    case Shape::Shuffle: return "d[|p], a, b, c, membermask";
    case Shape::Vote: return "d, {!}p, membermask";
    case Shape::WarpReduce: return "d, a, membermask";
    case Shape::Match: return "d[|p], a, membermask";
    case Shape::Barrier: return "id[, b] | membermask | d, id, {!}p";
    case Shape::AsyncCopy: return "[dst], [src], size[, src-size] | n";
    case Shape::Matrix:
        return "{d, ...}, [addr][, stride] | [addr], {a, ...}[, stride] | {d, ...}, {a, ...}, {b, ...}, {c, ...}";
    case Shape::Mbarrier: return "[addr][, count] | state, [addr][, count] | p, [addr], state | d, state";
    case Shape::MatrixMma: return "{d, ...}, {a, ...}, {b, ...}, {c, ...}";
    case Shape::MatrixRows: return "{d, ...}, [addr] | [addr], {a, ...}";
    }
    return "";
}

std::string typeSetText(TypeSet s)
{
    static constexpr std::pair<T, const char*> names[]
        = {{T::B8, "b8"},         {T::B16, "b16"}, {T::B32, "b32"}, {T::B64, "b64"},     {T::U8, "u8"},
           {T::U16, "u16"},       {T::U32, "u32"}, {T::U64, "u64"}, {T::S8, "s8"},       {T::S16, "s16"},
           {T::S32, "s32"},       {T::S64, "s64"}, {T::F16, "f16"}, {T::F16x2, "f16x2"}, {T::BF16, "bf16"},
           {T::BF16x2, "bf16x2"}, {T::F32, "f32"}, {T::F64, "f64"}, {T::Pred, "pred"}};
    std::string out;
    auto add = [&](const char* name) { out += out.empty() ? name : std::string(" ") + name; };
    if ((s & kInt) == kInt) {
        add("int");
        s &= ~kInt;
    }
    for (const auto& [t, name] : names)
        if (s & typeBit(t))
            add(name);
    return out;
}

} // namespace kw::sim
