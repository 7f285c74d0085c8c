#pragma once
// The text of an exported Python program (CuPy or PyCUDA): the document's buffers,
// launch or steps, checks and timing, around the target's `Device` class.
#include "export/ExportPlan.hpp"
#include "export/PythonDevice.hpp"

#include <string>

namespace kw::exporting {

class PythonProgram {
public:
    static std::string text(const ExportPlan& plan, const PythonDevice& device);
    // "data/NAME.npy": where a baked buffer's values lie in the folder.
    static std::string bakedFile(const ExportBuffer& b);
    // The expression language's helpers and the checks' code the program carries (Python).
    static const char* helpers();
};

} // namespace kw::exporting
