#pragma once
// A sweep the user asked for: run the kernel once per value, either as the block size
// (x) or as the value of a -D macro. The main window runs the jobs.
#include <QMetaType>

#include <string>
#include <vector>

namespace kw {

struct SweepRequest {
    enum Kind { BlockSize, Macro };
    Kind kind = BlockSize;
    std::string macro;                  // the -D name when kind == Macro
    std::vector<std::string> values;    // in the order the user typed them
};

} // namespace kw

Q_DECLARE_METATYPE(kw::SweepRequest)
