#include "serve/DevicesCommand.hpp"

#include "run/DevicesReport.hpp"
#include "run/DevicesText.hpp"
#include "run/ExitCode.hpp"
#include "run/FailureReport.hpp"
#include "serve/ResultJson.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kw {

int DevicesCommand::execute(bool json, std::FILE* out, std::FILE* err)
{
    try {
        const DevicesReport report = DevicesReport::collect();
        if (json)
            fmt::print(out, "{}\n", toJson(report).dump(2));
        else
            fmt::print(out, "{}", DevicesText::format(report));
        return ExitCode::Ok;
    } catch (const std::exception& e) {
        return FailureReport::print(err, e);
    }
}

} // namespace kw
