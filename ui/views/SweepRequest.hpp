#pragma once
// A sweep the user asked for: run the kernel once per value, as the block size (x),
// the value of a -D macro, or the value of one of the document's variables (which
// the launch expressions may use: a `tile` that sets both block and grid).
#include <QMetaType>

#include <string>
#include <vector>

namespace kw {

struct SweepRequest {
    enum Kind { BlockSize, Macro, Variable };
    Kind kind = BlockSize;
    std::string name;                // the -D or variable name (Macro, Variable)
    std::vector<std::string> values; // in the order the user typed them
};

} // namespace kw

Q_DECLARE_METATYPE(kw::SweepRequest)
