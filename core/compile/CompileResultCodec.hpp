#pragma once
// A compact binary form of CompileResult for the on-disk program cache.
#include "compile/CompileResult.hpp"

#include <string>
#include <string_view>

namespace kw {

std::string encodeCompileResult(const CompileResult& result);
// False when `bytes` is not exactly one well-formed encoding.
bool decodeCompileResult(std::string_view bytes, CompileResult& result);

} // namespace kw
