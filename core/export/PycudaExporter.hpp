#pragma once
// The document as a Python program on PyCUDA. PyCUDA compiles with nvcc
// (pycuda.compiler.SourceModule), not NVRTC: the document's options go to nvcc, which
// takes the same spellings for the usual ones, and kernels are found by their mangled
// names (NVRTC's lowered names, worked out when exporting), since SourceModule has no
// name expressions. A template kernel is made to exist by a use in a small wrapper file.
#include "export/ExportFiles.hpp"
#include "export/ExportPlan.hpp"
#include "export/PythonDevice.hpp"

#include <map>
#include <string>

namespace kw::exporting {

class PycudaExporter {
public:
    static constexpr const char* kScript = "run_pycuda.py";
    static constexpr const char* kWrapper = "kernels_pycuda.cu";
    // `lowered`: each of plan.kernels() -> its mangled name.
    static PythonDevice device(const ExportPlan& plan, const std::map<std::string, std::string>& lowered);
    static ExportFiles files(const ExportPlan& plan, const std::map<std::string, std::string>& lowered);
};

} // namespace kw::exporting
