#include "serve/ExportCommand.hpp"

#include "doc/DocumentReader.hpp"
#include "export/DocumentExport.hpp"
#include "run/ExitCode.hpp"
#include "run/FailureReport.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

namespace kw {

ExportCommand::ExportCommand(ExportCommandOptions options, std::FILE* out, std::FILE* err)
    : options_(std::move(options))
    , out_(out)
    , err_(err)
{
}

int ExportCommand::execute()
{
    try {
        const auto target = exporting::DocumentExport::parseTarget(options_.target);
        if (!target)
            throw Error(ErrorCategory::Usage, "--to: \"" + options_.target + "\" is not one of cupy, pycuda, cpp");
        const Document doc
            = DocumentReader::readFile(options_.file, options_.trust ? Trust::Trusted : Trust::Untrusted);
        exporting::ExportRequest request;
        request.target = *target;
        request.cubin = options_.cubin;
        request.arch = options_.arch;
        const std::filesystem::path file(options_.file);
        request.folder = options_.outDir.empty() ? file.parent_path() / (file.stem().string() + "-" + options_.target)
                                                 : std::filesystem::path(options_.outDir);
        const auto written = exporting::DocumentExport::write(doc, request);
        for (const auto& w : written)
            if (w.rfind("kwb_headers/", 0) != 0)
                std::fprintf(out_, "wrote %s\n", (request.folder / w).string().c_str());
        std::fprintf(out_, "exported %s for %s to %s (README.md says how to run it)\n", options_.file.c_str(),
                     options_.target.c_str(), request.folder.string().c_str());
        return ExitCode::Ok;
    } catch (const std::exception& e) {
        return FailureReport::print(err_, e);
    }
}

} // namespace kw
