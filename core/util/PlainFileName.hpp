#pragma once
// The one rule for a name that becomes a file in a folder (an output buffer's NAME.npy):
// a single plain component on every system, so a name that came from elsewhere (a
// runner) can neither leave the folder, nor lose its suffix, nor name a Windows device.
#include <optional>
#include <string>
#include <string_view>

namespace kw {

class PlainFileName {
public:
    // Why `name` is not a plain file name; nullopt when it is. Refused: empty, longer than
    // 255 bytes, "." and "..", '/' and '\\', NUL and the other control characters, what
    // Windows forbids in a name (<>:"|?*), a trailing dot or space, and Windows' device
    // names (CON, PRN, AUX, NUL, COM0-9, LPT0-9, CONIN$, CONOUT$) with any extension.
    static std::optional<std::string> problem(std::string_view name);
    static bool isPlain(std::string_view name) { return !problem(name); }

    // `name` in double quotes for a message: control characters, quotes and backslashes
    // escaped (\x00, \", \\), cut after 80 bytes, so a hostile name cannot garble a terminal.
    static std::string quoted(std::string_view name);
};

} // namespace kw
