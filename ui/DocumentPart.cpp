#include "DocumentPart.hpp"

#include "doc/DocumentWriter.hpp"
#include "doc/PlacedChecks.hpp"

namespace kw {

void copyPart(DocumentPart part, const Document& from, Document& to)
{
    switch (part) {
    case DocumentPart::Source: to.source = from.source; break;
    case DocumentPart::Kernel: to.kernel = from.kernel; break;
    case DocumentPart::Launch:
        to.launch = from.launch;
        to.run = from.run;
        break;
    case DocumentPart::Args:
        to.args = from.args;
        to.argsAuto = from.argsAuto;
        break;
    case DocumentPart::Buffers: to.buffers = from.buffers; break;
    case DocumentPart::Variables: to.variables = from.variables; break;
    case DocumentPart::Checks: PlacedChecks::place(to, PlacedChecks::list(from)); break; // the steps' too
    case DocumentPart::Options: to.options = from.options; break;
    case DocumentPart::Steps:
        to.steps = from.steps;
        to.kernels = from.kernels;
        break;
    case DocumentPart::Whole: to = from; break;
    }
}

bool samePart(DocumentPart part, const Document& a, const Document& b)
{
    if (part == DocumentPart::Source)
        return a.source == b.source; // the one part compared often: no serialising
    // The writer is the one definition of what a field holds, so compare its output:
    // `b`'s part written over a copy of `a` changes nothing when the two agree.
    Document mixed = a;
    copyPart(part, b, mixed);
    return DocumentWriter::toString(mixed) == DocumentWriter::toString(a)
        && (part != DocumentPart::Whole || (a.trust == b.trust && a.path == b.path));
}

const char* partName(DocumentPart part)
{
    switch (part) {
    case DocumentPart::Source: return "source";
    case DocumentPart::Kernel: return "kernel";
    case DocumentPart::Launch: return "launch";
    case DocumentPart::Args: return "arguments";
    case DocumentPart::Buffers: return "buffers";
    case DocumentPart::Variables: return "variables";
    case DocumentPart::Checks: return "checks";
    case DocumentPart::Options: return "options";
    case DocumentPart::Steps: return "steps";
    case DocumentPart::Whole: return "document";
    }
    return "document";
}

} // namespace kw
