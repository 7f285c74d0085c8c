#pragma once
// The fixed part of an exported C++ program: errors, a .npy reader and writer, the
// expression language's helpers, NVRTC and the driver API, the run of buffers by name,
// the checks and the timing statistics. CppExporter writes the document's part after it.
namespace kw::exporting {

struct CppRuntime {
    static const char* text();
};

} // namespace kw::exporting
