#pragma once
// Compares an output buffer with the expected value of each element.
#include "data/HostBuffer.hpp"
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"
#include "launch/RunResult.hpp"
#include "util/Deadline.hpp"

#include <string>
#include <vector>

namespace kw {

// A buffer as checks see it.
struct CheckBuffer {
    std::string name;
    const HostBuffer* data = nullptr;    // after the launch
    const HostBuffer* initial = nullptr; // before it (optional): the name "<name>_in"
    std::vector<std::size_t> shape;      // display shape; empty means 1-D
};

class CheckEvaluator {
public:
    // scope: the variables (and scalar arguments) the expressions may use.
    // Buffer names take precedence over the index names x, y, z and over scope names.
    CheckEvaluator(const VariableScope& scope, std::vector<CheckBuffer> buffers);

    // `expect` is evaluated per element i of check.buffer with i, x, y, z (x fastest
    // over the shape), the scope, every buffer by name (its element i), `<name>_in`
    // (element i before the launch, where given) and name(j) / name_in(j) (element j).
    // field names the check in errors ("checks[0]"). Throws kw::Error(Expression)
    // for a bad expression, an unknown name or an index outside a buffer.
    // The loops over elements stop with kw::Error(Limit) once `deadline` has passed.
    CheckResult evaluate(const CheckSpec& check, const std::string& field,
                         const Deadline& deadline = Deadline::none()) const;

    // Parses `expect` against the names a check would have, without data; the
    // validator uses this to refuse a bad check when the document is loaded.
    // Whether any of `checks` names a buffer's state before the run (`<name>_in`), so the
    // initial data must be kept for them.
    static bool usesInitialData(const std::vector<CheckSpec>& checks);

    static void validate(const CheckSpec& check, const std::string& field, const VariableScope& scope,
                         const std::vector<std::string>& bufferNames);

private:
    const VariableScope& scope_;
    std::vector<CheckBuffer> buffers_;
};

} // namespace kw
