#pragma once
// A CompileRequest as JSON, for handing a compile to a child process.
#include "compile/Compiler.hpp"

#include <nlohmann/json.hpp>

namespace kw {

nlohmann::json toJson(const CompileRequest& request);
// Throws kw::Error(Protocol) when a member has the wrong type.
CompileRequest compileRequestFromJson(const nlohmann::json& j);

} // namespace kw
