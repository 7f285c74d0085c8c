#include "run/FailureReport.hpp"

#include "run/ExitCode.hpp"
#include "util/Error.hpp"

namespace kw {

std::string FailureReport::text(const std::exception& e)
{
    const auto* ke = dynamic_cast<const Error*>(&e);
    if (ke && ke->category() == ErrorCategory::Untrusted)
        return std::string("kwb-run: untrusted error: ") + e.what()
               + "\n(for a document of your own, --trust lifts this)\n";
    return std::string("kwb-run: ") + (ke ? toString(ke->category()) : "internal") + " error: " + e.what() + "\n";
}

int FailureReport::print(std::FILE* err, const std::exception& e)
{
    std::fputs(text(e).c_str(), err);
    return ExitCode::of(e);
}

} // namespace kw
