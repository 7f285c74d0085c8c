#pragma once
// How a kernel fault is told to the user: the message without the simulator's own
// location suffix, block and thread once, and the place named as the document's
// source (not the compiler's scratch name) with the line to jump to.
#include "launch/LaunchTypes.hpp"

#include <QString>

namespace kw {

class FaultDescription {
public:
    // compiledName: the name the source was compiled under (kernel.cu or the
    // document's source file); sourceLabel: how to name that source to the user.
    FaultDescription(const Fault& fault, const std::string& compiledName, const QString& sourceLabel);

    QString detail() const { return detail_; }
    // The 1-based line in the document's source, 0 when the fault is elsewhere or unknown.
    int sourceLine() const { return sourceLine_; }
    QString location() const { return location_; }

private:
    QString detail_, location_;
    int sourceLine_ = 0;
};

} // namespace kw
