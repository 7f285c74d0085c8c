#include "doc/ArgumentPacker.hpp"

#include "doc/Expression.hpp"
#include "doc/ScalarPacker.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kw {

std::string argumentField(const std::string& prefix, std::size_t index, const ArgSpec& spec)
{
    return prefix + "[" + std::to_string(index) + "]" + (spec.name.empty() ? "" : " (" + spec.name + ")");
}

PackedArgument packArgument(const ArgSpec& spec, const std::vector<BufferArg>& buffers, const VariableScope& scope,
                            const std::string& field)
{
    PackedArgument packed;
    LaunchArg& arg = packed.arg;
    if (!spec.isBuffer()) {
        const double value = scope.evaluate(spec.value, field + ".value");
        arg.bytes = packScalar(spec.type, spec.value, value, field);
        packed.scalar = value;
        return packed;
    }
    std::size_t index = 0;
    while (index < buffers.size() && buffers[index].name != spec.buffer)
        ++index;
    if (index == buffers.size())
        throw Error(ErrorCategory::Document, field + ".buffer: no buffer named \"" + spec.buffer + "\"");
    arg.isBuffer = true;
    arg.buffer = index;
    if (!spec.offset.empty()) {
        // A whole element inside the buffer, as `d_in + RADIUS` in a program.
        const double offset = scope.evaluate(spec.offset, field + ".offset");
        const std::size_t count = buffers[index].data.count();
        if (offset != std::floor(offset) || offset < 0 || offset >= static_cast<double>(count))
            throw Error(ErrorCategory::Document,
                        fmt::format("{}.offset: {} is not an element of buffer \"{}\" (0 to {})", field,
                                    formatNumber(offset), spec.buffer, count - 1));
        arg.offsetBytes = static_cast<std::size_t>(offset) * sizeOf(buffers[index].data.dtype());
    }
    return packed;
}

} // namespace kw
