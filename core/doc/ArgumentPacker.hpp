#pragma once
// One kernel argument of a document as a backend passes it: a buffer by its index in
// the document (with the offset `d_in + RADIUS` gives) or a scalar's bytes.
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"
#include "launch/LaunchTypes.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kw {

struct PackedArgument {
    LaunchArg arg;
    std::optional<double> scalar; // a scalar's value, for the checks that name it
};

// `buffers` are the document's buffers in its order (their element counts bound an
// offset); `field` names the argument in errors ("steps[2].args[1] (n)"). Throws
// kw::Error(Document) or (Expression) naming the field.
PackedArgument packArgument(const ArgSpec& spec, const std::vector<BufferArg>& buffers, const VariableScope& scope,
                            const std::string& field);

// "args[2] (n)": the field of argument `index` of `args` under `prefix` ("args", "steps[1].args").
std::string argumentField(const std::string& prefix, std::size_t index, const ArgSpec& spec);

} // namespace kw
