#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kw {

enum class DType { I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64 };

std::size_t sizeOf(DType t);
const char* toString(DType t);                       // "f32"
std::optional<DType> parseDType(std::string_view s); // "f32", also "float", "int", "uint32_t"...
// The dtype for a C type name as written in a kernel signature ("float", "__half", "unsigned int").
std::optional<DType> dtypeForCType(std::string_view cType);
const char* cTypeName(DType t); // "float"
bool isFloating(DType t);
// numpy descr ("<f4"); f16 is "<f2"; bf16 has no numpy type and is stored as "<u2".
const char* npyDescr(DType t);

// Element conversions through double (exact for all integer values up to 2^53).
double loadAsDouble(DType t, const void* p);
void storeFromDouble(DType t, void* p, double v); // rounds, saturates integers

} // namespace kw
