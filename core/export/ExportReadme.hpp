#pragma once
// README.md of an exported folder: how to run it, what each file is, which buffers were
// baked as .npy files and why, and where the program differs from the workbench's run.
#include "export/ExportFiles.hpp"
#include "export/ExportPlan.hpp"

#include <string>

namespace kw::exporting {

class ExportReadme {
public:
    static std::string text(const ExportPlan& plan, ExportTarget target, const ExportFiles& files);
};

} // namespace kw::exporting
