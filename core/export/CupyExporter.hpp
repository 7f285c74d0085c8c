#pragma once
// The document as a Python program on CuPy: NVRTC through cupy.RawModule, with the
// document's options, the workbench's built-in headers and the kernels by name expression.
#include "export/ExportFiles.hpp"
#include "export/ExportPlan.hpp"
#include "export/PythonDevice.hpp"

namespace kw::exporting {

class CupyExporter {
public:
    static constexpr const char* kScript = "run_cupy.py";
    static PythonDevice device(const ExportPlan& plan);
    // run_cupy.py (the source, headers, data and README come from DocumentExport).
    static ExportFiles files(const ExportPlan& plan);
};

} // namespace kw::exporting
