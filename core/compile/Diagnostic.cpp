#include "compile/Diagnostic.hpp"

namespace kw {

const char* toString(Severity severity)
{
    switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Remark: return "remark";
    case Severity::Note: return "note";
    }
    return "error";
}

} // namespace kw
