#include "export/DocumentExport.hpp"

#include "compile/Compiler.hpp"
#include "data/NpyFile.hpp"
#include "doc/DefineValues.hpp"
#include "export/CppExporter.hpp"
#include "export/CupyExporter.hpp"
#include "export/ExportPlan.hpp"
#include "export/ExportReadme.hpp"
#include "export/PycudaExporter.hpp"
#include "export/PythonProgram.hpp"
#include "export/SourceFiles.hpp"
#include "util/Error.hpp"

#include <fstream>
#include <optional>

namespace kw::exporting {

namespace fs = std::filesystem;

namespace {

// The document compiled as the workbench compiles it (no printf tags): the kernels'
// mangled names (what PyCUDA's get_function needs) and, for a real arch, the cubin.
CompileResult compiled(const Document& doc, const ExportRequest& request, const std::string& arch = {})
{
    CompileRequest c;
    c.source = doc.source;
    c.sourceName = doc.sourceName();
    c.baseDir = doc.baseDir();
    c.options = doc.options;
    VariableScope scope = VariableScope::evaluate(doc.variables);
    c.options.defines = resolveDefines(doc.options.defines, scope);
    c.options.tagPrintf = false;
    if (!arch.empty())
        c.options.arch = arch;
    c.nameExpressions = doc.kernelNames();
    c.trust = doc.trust;
    Compiler compiler;
    if (!request.compileWorker.empty())
        compiler.setWorker(request.compileWorker);
    const CompileResult r = compiler.compile(c);
    if (!r.ok)
        throw Error(ErrorCategory::Usage, "the source does not compile, so it cannot be exported this way:\n" + r.log);
    return r;
}

EmbeddedCubin embeddedCubin(const Document& doc, const ExportRequest& request)
{
    const std::string arch = request.arch.empty() ? doc.options.arch : request.arch;
    if (arch.rfind("sm_", 0) != 0 || arch.size() < 5 || arch.find_first_not_of("0123456789", 3) != std::string::npos)
        throw Error(ErrorCategory::Usage,
                    "--cubin needs a real architecture such as sm_90 (--arch, or the document's "
                    "options.arch): a cubin runs on one architecture only");
    const CompileResult r = compiled(doc, request, arch);
    if (r.cubin.empty())
        throw Error(ErrorCategory::Usage, "NVRTC gave no cubin for " + arch);
    return {r.cubin, std::stoi(arch.substr(3)), r.loweredNames};
}

void writeText(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out)
        throw Error(ErrorCategory::Io, "cannot write " + path.string());
}

} // namespace

std::optional<ExportTarget> DocumentExport::parseTarget(const std::string& name)
{
    if (name == "cupy")
        return ExportTarget::Cupy;
    if (name == "pycuda")
        return ExportTarget::Pycuda;
    if (name == "cpp")
        return ExportTarget::Cpp;
    return std::nullopt;
}

std::vector<std::string> DocumentExport::write(const Document& doc, const ExportRequest& request)
{
    if (request.cubin && request.target != ExportTarget::Cpp)
        throw Error(ErrorCategory::Usage, "--cubin is for --to cpp");
    const ExportPlan plan = ExportPlan::make(doc);
    ExportFiles files;
    switch (request.target) {
    case ExportTarget::Cupy: files = CupyExporter::files(plan); break;
    case ExportTarget::Pycuda: files = PycudaExporter::files(plan, compiled(doc, request).loweredNames); break;
    case ExportTarget::Cpp: {
        const std::optional<EmbeddedCubin> cubin
            = request.cubin ? std::optional<EmbeddedCubin>(embeddedCubin(doc, request)) : std::nullopt;
        files = CppExporter::files(plan, cubin ? &*cubin : nullptr);
        break;
    }
    }
    for (auto& f : SourceFiles::files(plan, request.target != ExportTarget::Pycuda))
        files.push_back(std::move(f));
    files.push_back({"README.md", ExportReadme::text(plan, request.target, files)});

    std::vector<std::string> written;
    for (const auto& f : files) {
        const fs::path p = fs::path(f.path);
        if (p.is_absolute() || p.lexically_normal().string().rfind("..", 0) == 0)
            throw Error(ErrorCategory::Usage, "\"" + f.path + "\" would lie outside the export folder");
        writeText(request.folder / p, f.text);
        written.push_back(f.path);
    }
    for (const auto& b : plan.buffers())
        if (b.init.form == InitialValues::Form::Baked) {
            fs::create_directories(request.folder / "data");
            NpyFile::write(request.folder / PythonProgram::bakedFile(b), b.initial, b.shape);
            written.push_back(PythonProgram::bakedFile(b));
        }
    return written;
}

} // namespace kw::exporting
