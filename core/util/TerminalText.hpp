#pragma once
// Text from a kernel (its printf) made safe to show on a terminal: control characters
// other than line feed and tab are shown as \xNN, so a kernel cannot move the cursor,
// erase what was printed, set the clipboard (OSC 52) or recolour the summary.
#include <string>
#include <string_view>

namespace kw {

class TerminalText {
public:
    // C0 controls but \n and \t, DEL, and the C1 controls (as UTF-8, U+0080..U+009F, or as
    // single bytes 0x80..0x9F that are not part of a UTF-8 sequence) become \xNN.
    static std::string escape(std::string_view text);
};

} // namespace kw
