#include "run/ExitCode.hpp"

#include "util/Error.hpp"

namespace kw {

int ExitCode::of(const CompileResult& r) { return r.ok ? Ok : CompileErrors; }

int ExitCode::of(const RunResult& r)
{
    if (!r.compile.ok)
        return CompileErrors;
    if (r.fault)
        return Fault;
    return r.ok ? Ok : CheckFailed;
}

int ExitCode::of(const std::exception& e)
{
    const auto* ke = dynamic_cast<const Error*>(&e);
    return ke && ke->category() == ErrorCategory::Untrusted ? Untrusted : BadInput;
}

} // namespace kw
