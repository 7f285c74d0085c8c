#pragma once
// The part of an exported Python program that talks to the GPU: its imports and a class
// `Device` with one method per operation (compile, alloc, upload, download, copy, launch,
// module variables, events). CupyExporter and PycudaExporter each give one; the rest of
// the program (PythonProgram) is the same for both.
#include <string>
#include <vector>

namespace kw::exporting {

struct PythonDevice {
    std::string target;               // "cupy", "pycuda"
    std::string imports;              // import lines
    std::string deviceClass;          // class Device: ...
    std::string sourceFile;           // the .cu file the script compiles
    std::vector<std::string> options; // compile options the script passes
    std::string kernelsLiteral;       // Python literal: how the script finds the kernels
};

} // namespace kw::exporting
