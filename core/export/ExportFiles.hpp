#pragma once
// The files of an exported program, by their path in its folder, before they are written.
#include <string>
#include <utility>
#include <vector>

namespace kw::exporting {

enum class ExportTarget { Cupy, Pycuda, Cpp };
const char* toString(ExportTarget target); // "cupy", "pycuda", "cpp"

struct ExportFile {
    std::string path; // relative, '/'-separated
    std::string text;
};
using ExportFiles = std::vector<ExportFile>;

} // namespace kw::exporting
