#pragma once
// The launch's grid, block and dynamic shared memory from their expressions.
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"
#include "launch/LaunchTypes.hpp"

#include <cstdint>

namespace kw {

struct LaunchDims {
    Dim3 grid, block;
    std::uint32_t sharedBytes = 0;
};

// Each dimension must be a positive integer that fits 32 bits; shared bytes a
// non-negative one. Throws kw::Error(Expression) or (Document) naming the field,
// e.g. `launch.block[0]: "0" must be a positive integer (0)`. Device limits are the
// backend's business.
// `field` names where the launch is: "launch" (fields launch.grid[0]...), or a step
// ("steps[1]": steps[1].grid[0]...).
LaunchDims evaluateLaunch(const LaunchSpecText& launch, const VariableScope& scope,
                          const std::string& field = "launch");

} // namespace kw
