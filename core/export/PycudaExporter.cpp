#include "export/PycudaExporter.hpp"

#include "export/PythonProgram.hpp"
#include "export/SourceFiles.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kw::exporting {

namespace {

constexpr const char* kDevice = R"PY(
class Device:
    """The GPU through PyCUDA: nvcc compiles the source (pycuda.compiler.SourceModule)."""

    def __init__(self, source, options, names):
        with open(source, encoding="utf-8") as f:
            code = f.read()
        self.module = SourceModule(code, options=list(options), no_extern_c=True, arch=ARCH,
                                   include_dirs=[os.path.join(HERE, d) for d in INCLUDE_DIRS])
        self.lowered = names
        self.kernels = {}
        self.keep = []

    def name(self):
        return CONTEXT.get_device().name()

    def kernel(self, name):
        if name not in self.kernels:
            self.kernels[name] = self.module.get_function(self.lowered[name])
        return self.kernels[name]

    def alloc(self, nbytes):
        memory = drv.mem_alloc(max(nbytes, 1))
        self.keep.append(memory)
        return int(memory)

    def upload(self, ptr, host):
        if host.nbytes:
            drv.memcpy_htod(ptr, host)

    def download(self, ptr, host):
        if host.nbytes:
            drv.memcpy_dtoh(host, ptr)

    def copy(self, target, source, nbytes):
        if nbytes:
            drv.memcpy_dtod(target, source, nbytes)

    def global_ptr(self, name, nbytes):
        ptr, size = self.module.get_global(name)
        if size != nbytes:
            raise SystemExit("global '%s': the variable is %d bytes but the document gives %d bytes"
                             % (name, size, nbytes))
        return int(ptr)

    def launch(self, kernel, grid, block, shared, args):
        kernel(*args, grid=tuple(grid), block=tuple(block), shared=shared)

    def event(self):
        return drv.Event()

    def record(self, event):
        event.record()

    def elapsed_ms(self, start, stop):
        stop.synchronize()
        return stop.time_since(start)

)PY";

bool isTemplate(const std::string& name) { return name.find('<') != std::string::npos; }

} // namespace

PythonDevice PycudaExporter::device(const ExportPlan& plan, const std::map<std::string, std::string>& lowered)
{
    PythonDevice d;
    d.target = "pycuda";
    std::string arch = "None";
    for (const auto& o : plan.nvrtcOptions()) {
        if (o.rfind("-arch=", 0) == 0) {
            if (o.rfind("-arch=sm_", 0) == 0)
                arch = nlohmann::json(o.substr(6)).dump();
            continue; // SourceModule passes -arch itself (the GPU's own unless ARCH names one)
        }
        d.options.push_back(o);
    }
    d.imports = "import pycuda.autoinit\nimport pycuda.driver as drv\nfrom pycuda.compiler import SourceModule\n\n"
                "CONTEXT = pycuda.autoinit.context\nARCH = "
        + arch + "\nINCLUDE_DIRS = " + nlohmann::json(SourceFiles::nvccIncludeOptions(plan)).dump() + "\n";
    d.deviceClass = kDevice;
    const auto kernels = plan.kernels();
    d.sourceFile = std::any_of(kernels.begin(), kernels.end(), isTemplate) ? kWrapper : plan.source().fileName;
    nlohmann::json names = nlohmann::json::object();
    for (const auto& k : kernels) {
        const auto l = lowered.find(k);
        if (l == lowered.end())
            throw Error(ErrorCategory::Usage,
                        "the PyCUDA export needs the mangled name of kernel " + k
                            + " (from NVRTC), and the compile did not give it");
        names[k] = l->second;
    }
    d.kernelsLiteral = names.dump();
    return d;
}

ExportFiles PycudaExporter::files(const ExportPlan& plan, const std::map<std::string, std::string>& lowered)
{
    const PythonDevice d = device(plan, lowered);
    ExportFiles out{{kScript, PythonProgram::text(plan, d)}};
    if (d.sourceFile == kWrapper) {
        std::string w = "// nvcc emits a template kernel only where it is used: the uses below make the\n"
                        "// instantiations the document launches, which run_pycuda.py finds by their mangled names.\n";
        w += fmt::format("#include \"{}\"\n\n", plan.source().fileName);
        int n = 0;
        for (const auto& k : plan.kernels())
            if (isTemplate(k))
                w += fmt::format("static void* const kwb_launched_{} = (void*)&{};\n", n++, k);
        out.push_back({kWrapper, w});
    }
    return out;
}

} // namespace kw::exporting
