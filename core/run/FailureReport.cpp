#include "run/FailureReport.hpp"

#include "run/ExitCode.hpp"
#include "util/Error.hpp"
#include "util/TerminalText.hpp"

namespace kw {

std::string FailureReport::text(const std::exception& e)
{
    const auto* ke = dynamic_cast<const Error*>(&e);
    // A message may carry what a runner or a document wrote: shown, never obeyed by the terminal.
    const std::string what = TerminalText::escape(e.what());
    if (ke && ke->category() == ErrorCategory::Untrusted)
        return "kwb-run: untrusted error: " + what + "\n(for a document of your own, --trust lifts this)\n";
    return std::string("kwb-run: ") + (ke ? toString(ke->category()) : "internal") + " error: " + what + "\n";
}

int FailureReport::print(std::FILE* err, const std::exception& e)
{
    std::fputs(text(e).c_str(), err);
    return ExitCode::of(e);
}

} // namespace kw
