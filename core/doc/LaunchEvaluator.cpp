#include "doc/LaunchEvaluator.hpp"

#include "util/Error.hpp"

#include <limits>

namespace kw {

namespace {

Dim3 evaluateDims(const std::vector<std::string>& texts, const VariableScope& scope, const std::string& field)
{
    if (texts.empty() || texts.size() > 3)
        throw Error(ErrorCategory::Document, field + ": needs 1 to 3 expressions, has " + std::to_string(texts.size()));
    std::uint32_t v[3] = {1, 1, 1};
    for (std::size_t d = 0; d < texts.size(); ++d) {
        const std::string f = field + "[" + std::to_string(d) + "]";
        const std::int64_t n = scope.evaluateInteger(texts[d], f);
        if (n < 1)
            throw Error(ErrorCategory::Document,
                        f + ": \"" + texts[d] + "\" must be a positive integer (" + std::to_string(n) + ")");
        if (n > std::numeric_limits<std::uint32_t>::max())
            throw Error(ErrorCategory::Document, f + ": \"" + texts[d] + "\" is too large (" + std::to_string(n) + ")");
        v[d] = std::uint32_t(n);
    }
    return Dim3{v[0], v[1], v[2]};
}

} // namespace

LaunchDims evaluateLaunch(const LaunchSpecText& launch, const VariableScope& scope, const std::string& field)
{
    LaunchDims dims;
    dims.grid = evaluateDims(launch.grid, scope, field + ".grid");
    dims.block = evaluateDims(launch.block, scope, field + ".block");
    const std::int64_t shared = scope.evaluateInteger(launch.sharedBytes, field + ".shared_bytes");
    if (shared < 0 || shared > std::numeric_limits<std::uint32_t>::max())
        throw Error(ErrorCategory::Document,
                    field + ".shared_bytes: \"" + launch.sharedBytes + "\" is out of range (" + std::to_string(shared)
                        + ")");
    dims.sharedBytes = std::uint32_t(shared);
    return dims;
}

} // namespace kw
