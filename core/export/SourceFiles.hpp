#pragma once
// The source files of an exported program: the kernel source under the document's name
// for it, the document's own headers at their places beside it and, for the targets that
// compile with NVRTC, the workbench's built-in headers (kwb_headers/: <cmath>, <cstdio>
// and the pre-included kwb_nvcc_environment.h, the names nvcc's cuda_runtime.h gives).
#include "export/ExportFiles.hpp"
#include "export/ExportPlan.hpp"

#include <string>
#include <vector>

namespace kw::exporting {

class SourceFiles {
public:
    static constexpr const char* kBuiltinFolder = "kwb_headers";
    static constexpr const char* kNvccEnvironment = "kwb_nvcc_environment.h";
    static ExportFiles files(const ExportPlan& plan, bool builtinHeaders);
    // The include folders, relative to the program's folder, in the order NVRTC searches
    // them: the built-in headers, the source's folder, the document's include_dirs.
    static std::vector<std::string> nvrtcIncludeOptions(const ExportPlan& plan);
    // The same without the built-in headers (nvcc has the real ones).
    static std::vector<std::string> nvccIncludeOptions(const ExportPlan& plan);
};

} // namespace kw::exporting
