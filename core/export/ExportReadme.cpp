#include "export/ExportReadme.hpp"

#include "export/CppExporter.hpp"
#include "export/CupyExporter.hpp"
#include "export/PycudaExporter.hpp"
#include "export/PythonProgram.hpp"
#include "export/SourceFiles.hpp"

#include <fmt/format.h>

namespace kw::exporting {

const char* toString(ExportTarget target)
{
    switch (target) {
    case ExportTarget::Cupy: return "cupy";
    case ExportTarget::Pycuda: return "pycuda";
    case ExportTarget::Cpp: return "cpp";
    }
    return "";
}

std::string ExportReadme::text(const ExportPlan& plan, ExportTarget target, const ExportFiles& files)
{
    const Document& doc = plan.document();
    const std::string docName = doc.path.filename().string().empty() ? "(unsaved)" : doc.path.filename().string();
    std::string s = fmt::format("# {}\n\n", doc.title.empty() ? docName : doc.title);
    s += fmt::format("Exported by Kernel Workbench from `{}`. The program compiles the document's source with its\n"
                     "options, runs its {} on GPU 0 with the same inputs, prints the same checks and\n"
                     "timing summary as `kwb-run run`, and writes every output buffer (direction `out` or\n"
                     "`inout`) as `out/NAME.npy`, as `kwb-run run --out DIR` does, so the two can be compared\n"
                     "byte for byte.\n\n",
                     docName, doc.isSequence() ? "steps" : "launch");
    s += "## How to run\n\n```sh\n";
    switch (target) {
    case ExportTarget::Cupy:
        s += fmt::format("python3 {} [--out DIR]\n```\n\nNeeds Python 3, NumPy and CuPy (`pip install cupy-cuda12x` "
                         "or the build for your CUDA).\n",
                         CupyExporter::kScript);
        break;
    case ExportTarget::Pycuda:
        s += fmt::format("python3 {} [--out DIR]\n```\n\nNeeds Python 3, NumPy, PyCUDA and `nvcc` on the PATH.\n",
                         PycudaExporter::kScript);
        break;
    case ExportTarget::Cpp:
        s += "cmake -B build && cmake --build build\nbuild/run_cpp [--out DIR] [--dir FOLDER]\n```\n\nNeeds a C++17 "
             "compiler, CMake 3.18 and the CUDA Toolkit (the driver API and NVRTC; no nvcc).\n";
        break;
    }
    s += "The exit status is 0 when every check passed and 4 when one failed, as with `kwb-run run`.\n\n";
    s += "## Files\n\n";
    for (const auto& f : files) {
        std::string what;
        if (f.path == plan.source().fileName)
            what = "the kernel source";
        else if (f.path == CupyExporter::kScript || f.path == PycudaExporter::kScript
                 || f.path == CppExporter::kProgram)
            what = "the program";
        else if (f.path == "CMakeLists.txt")
            what = "builds the program (find_package(CUDAToolkit))";
        else if (f.path == PycudaExporter::kWrapper)
            what = "includes the source and uses the template kernels the document launches, so nvcc emits them";
        else if (f.path.rfind(std::string(SourceFiles::kBuiltinFolder) + "/", 0) == 0)
            continue;
        else if (f.path.rfind("data/", 0) == 0)
            continue;
        else
            what = "a header of the document's";
        s += fmt::format("- `{}`: {}\n", f.path, what);
    }
    if (target != ExportTarget::Pycuda)
        s += fmt::format("- `{}/`: the workbench's built-in headers (`<cmath>`, `<cstdio>`...; NVRTC has none) and\n"
                         "  `{}`, pre-included as the workbench does: the names nvcc's `cuda_runtime.h` gives\n",
                         SourceFiles::kBuiltinFolder, SourceFiles::kNvccEnvironment);
    bool anyBaked = false;
    for (const auto& b : plan.buffers())
        anyBaked = anyBaked || b.init.form == InitialValues::Form::Baked;
    if (anyBaked)
        s += "- `data/`: the initial values of the buffers below, as the workbench computed them\n";

    s += "\n## Inputs: translated or baked\n\n";
    for (const auto& b : plan.buffers()) {
        const InitialValues& f = b.init;
        switch (f.form) {
        case InitialValues::Form::Baked:
            s += fmt::format("- `{}` ({} x {}): baked in `{}`: {}\n", b.name, b.count, toString(b.dtype),
                             PythonProgram::bakedFile(b), f.reason);
            break;
        case InitialValues::Form::Zeros: s += fmt::format("- `{}`: zeros\n", b.name); break;
        case InitialValues::Form::Fill: s += fmt::format("- `{}`: filled with {}\n", b.name, f.a); break;
        case InitialValues::Form::Arange:
            s += fmt::format("- `{}`: {} + i * {}, computed in double and converted\n", b.name, f.a, f.b);
            break;
        case InitialValues::Form::Linspace:
            s += fmt::format("- `{}`: evenly from {} to {}, computed in double and converted\n", b.name, f.a, f.b);
            break;
        }
    }
    s += "\nA formula is written only where its values, computed as the program computes them, are\n"
         "exactly the document's; everything else is baked.\n\n";

    s += "## Differences from the workbench's run\n\n";
    s += "- Device `printf` output is printed as the kernel prints it, without the workbench's\n"
         "  `[block (x,y,z) thread (x,y,z)]` tags.\n";
    if (!plan.source().blanked.empty()) {
        s += "- Host code in the source was blanked (as the workbench does before NVRTC sees it):\n";
        for (const auto& r : plan.source().blanked)
            s += fmt::format("  {} (lines {}-{})\n", r.what, r.firstLine, r.lastLine);
    }
    for (const auto& h : plan.source().headersLeftOut)
        s += fmt::format("- `{}` lies outside the document's folder and was not copied: the compile finds it "
                         "where it is, or not at all.\n",
                         h);
    switch (target) {
    case ExportTarget::Pycuda:
        s += "- PyCUDA compiles with nvcc rather than NVRTC. The document's options are passed to nvcc\n"
             "  (`-std`, `-D`, `-lineinfo`, `-G`, `--use_fast_math` are spelled the same; an NVRTC-only\n"
             "  option in `options.extra` may be refused). nvcc's own headers replace the workbench's\n"
             "  built-in ones; kernels are found by their mangled names, worked out by NVRTC on export.\n";
        break;
    case ExportTarget::Cupy:
        s += "- CuPy chooses the architecture itself (the GPU's own, as the workbench does); an\n"
             "  `options.arch` of the document is not passed.\n";
        break;
    case ExportTarget::Cpp: break;
    }
    if (doc.isSequence())
        s += "- Every step runs on its own; the workbench may replay a straight loop as a CUDA graph.\n"
             "  The buffers are the same (the workbench guarantees it bit for bit); the times of a\n"
             "  launch include no graph replays.\n";
    return s;
}

} // namespace kw::exporting
