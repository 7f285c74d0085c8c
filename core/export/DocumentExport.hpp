#pragma once
// Exports a document as a program that reproduces its run (docs/export.md): plans it
// (ExportPlan), lets the target's exporter write the program, adds the source, headers,
// baked data and README, and writes the folder. The one entry point for kwb-run export
// and the window's File > Export.
#include "doc/Document.hpp"
#include "export/ExportFiles.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kw::exporting {

struct ExportRequest {
    ExportTarget target = ExportTarget::Cupy;
    std::filesystem::path folder;
    // The compile worker for NVRTC (PyCUDA needs the kernels' mangled names); empty: the
    // compiler's default (kwb-run beside the running program).
    std::filesystem::path compileWorker;
    // C++ only: compile on export and embed the cubin (for `arch`, "sm_90", else the
    // document's options.arch, which must then be a real architecture).
    bool cubin = false;
    std::string arch;
};

class DocumentExport {
public:
    // Parses "cupy", "pycuda", "cpp".
    static std::optional<ExportTarget> parseTarget(const std::string& name);
    // Writes the folder (created if missing; files of the same names replaced) and
    // returns the paths written, relative to it. Throws kw::Error naming what failed.
    static std::vector<std::string> write(const Document& doc, const ExportRequest& request);
};

} // namespace kw::exporting
