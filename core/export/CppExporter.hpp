#pragma once
// The document as one C++17 program on the CUDA driver API and NVRTC (run.cpp), with a
// CMakeLists.txt that finds them through find_package(CUDAToolkit). It builds without
// warnings under -Wall -Wextra -Werror and needs no GPU to build.
#include "export/ExportFiles.hpp"
#include "export/ExportPlan.hpp"

namespace kw::exporting {

class CppExporter {
public:
    static constexpr const char* kProgram = "run.cpp";
    static ExportFiles files(const ExportPlan& plan);
    static std::string program(const ExportPlan& plan);
    static std::string cmakeLists(const ExportPlan& plan);
};

} // namespace kw::exporting
