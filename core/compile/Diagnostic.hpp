#pragma once
#include <string>
#include <vector>

namespace kw {

enum class Severity { Error, Warning, Remark, Note };
const char* toString(Severity severity);

// One message from NVRTC's log, located in the user's source.
struct Diagnostic {
    std::string file; // as NVRTC names it (the source name or an include)
    int line = 0;     // 1-based; 0 when the log gives none
    int column = 0;   // 1-based, from the caret line; 0 when unknown
    Severity severity = Severity::Error;
    std::string message;
    // Attached follow-ups such as "detected during instantiation of ..." notes.
    std::vector<std::string> notes;
    std::string code; // NVRTC's diagnostic number, e.g. "177-D"; empty when none
};

} // namespace kw
