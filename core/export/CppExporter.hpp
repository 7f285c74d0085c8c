#pragma once
// The document as one C++17 program on the CUDA driver API and NVRTC (run.cpp), with a
// CMakeLists.txt that finds them through find_package(CUDAToolkit). It builds without
// warnings under -Wall -Wextra -Werror and needs no GPU to build.
#include "export/ExportFiles.hpp"
#include "export/ExportPlan.hpp"

#include <map>
#include <string>
#include <vector>

namespace kw::exporting {

// A binary compiled on export (kwb-run export --cubin), for one architecture: the program
// loads it instead of compiling the source with NVRTC.
struct EmbeddedCubin {
    std::vector<char> cubin;
    int arch = 0;                               // 90 for sm_90
    std::map<std::string, std::string> lowered; // name expression -> mangled name
};

class CppExporter {
public:
    static constexpr const char* kProgram = "run.cpp";
    static ExportFiles files(const ExportPlan& plan, const EmbeddedCubin* cubin = nullptr);
    static std::string program(const ExportPlan& plan, const EmbeddedCubin* cubin = nullptr);
    static std::string cmakeLists(const ExportPlan& plan);
};

} // namespace kw::exporting
