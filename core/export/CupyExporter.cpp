#include "export/CupyExporter.hpp"

#include "export/PythonProgram.hpp"
#include "export/SourceFiles.hpp"

#include <nlohmann/json.hpp>

namespace kw::exporting {

namespace {

constexpr const char* kDevice = R"PY(
class Device:
    """The GPU through CuPy: NVRTC compiles the source (cupy.RawModule), the driver runs it."""

    def __init__(self, source, options, names):
        with open(source, encoding="utf-8") as f:
            code = f.read()
        self.module = cp.RawModule(code=code, options=tuple(options), name_expressions=tuple(names))
        self.module.compile()
        self.kernels = {}
        self.keep = []

    def name(self):
        return cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()

    def kernel(self, name):
        if name not in self.kernels:
            self.kernels[name] = self.module.get_function(name)
        return self.kernels[name]

    def alloc(self, nbytes):
        memory = cp.cuda.alloc(max(nbytes, 1))
        self.keep.append(memory)
        return memory.ptr

    def upload(self, ptr, host):
        if host.nbytes:
            cp.cuda.runtime.memcpy(ptr, host.ctypes.data, host.nbytes, cp.cuda.runtime.memcpyHostToDevice)

    def download(self, ptr, host):
        if host.nbytes:
            cp.cuda.runtime.memcpy(host.ctypes.data, ptr, host.nbytes, cp.cuda.runtime.memcpyDeviceToHost)

    def copy(self, target, source, nbytes):
        if nbytes:
            cp.cuda.runtime.memcpy(target, source, nbytes, cp.cuda.runtime.memcpyDeviceToDevice)

    def global_ptr(self, name, nbytes):
        memory = self.module.get_global(name)
        if memory.mem.size != nbytes:
            raise SystemExit("global '%s': the variable is %d bytes but the document gives %d bytes"
                             % (name, memory.mem.size, nbytes))
        return memory.ptr

    def launch(self, kernel, grid, block, shared, args):
        kernel(grid, block, tuple(args), shared_mem=shared)

    def event(self):
        return cp.cuda.Event()

    def record(self, event):
        event.record()

    def elapsed_ms(self, start, stop):
        stop.synchronize()
        return cp.cuda.get_elapsed_time(start, stop)

)PY";

} // namespace

PythonDevice CupyExporter::device(const ExportPlan& plan)
{
    PythonDevice d;
    d.target = "cupy";
    d.imports = "import cupy as cp\n";
    d.deviceClass = kDevice;
    d.sourceFile = plan.source().fileName;
    for (const auto& o : plan.nvrtcOptions())
        if (o.rfind("-arch=", 0) != 0) // CuPy compiles for the GPU it runs on, as the workbench does
            d.options.push_back(o);
    for (const auto& o : SourceFiles::nvrtcIncludeOptions(plan))
        d.options.push_back("=\"-I\" + os.path.join(HERE, " + nlohmann::json(o).dump() + ")");
    // By its path: NVRTC need not look for a pre-included header where #include looks.
    d.options.push_back(std::string("=\"--pre-include=\" + os.path.join(HERE, \"") + SourceFiles::kBuiltinFolder
                        + "\", \"" + SourceFiles::kNvccEnvironment + "\")");
    d.kernelsLiteral = nlohmann::json(plan.kernels()).dump();
    return d;
}

ExportFiles CupyExporter::files(const ExportPlan& plan) { return {{kScript, PythonProgram::text(plan, device(plan))}}; }

} // namespace kw::exporting
