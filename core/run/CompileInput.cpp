#include "run/CompileInput.hpp"

#include "doc/DefineValues.hpp"
#include "doc/DocumentReader.hpp"
#include "run/RunEngine.hpp"
#include "util/Error.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kw {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(ErrorCategory::Io, "cannot read " + path.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

CompileInput CompileInput::read(const CompileCommandOptions& o, const ArchChoice::Gpus& gpus)
{
    const Trust trust = o.trust ? Trust::Trusted : Trust::Untrusted;
    const fs::path path(o.file);
    CompileInput in;
    CompileRequest& req = in.compileRequest;
    if (path.extension() == ".kwb") {
        const Document doc = DocumentReader::readFile(path, trust);
        req = RunEngine::compileRequest(doc);
        req.sourceName = doc.sourceFile.empty() ? path.filename().string() : doc.sourceFile;
        if (!doc.isSequence()) { // a document of steps has a launch per step, maybe of buffer reads
            in.launch = evaluateLaunch(doc.launch, documentScope(doc));
            in.kernel = doc.kernel;
        }
    } else {
        req.source = readText(path);
        req.sourceName = path.filename().string();
        req.baseDir = fs::absolute(path).parent_path();
    }
    req.trust = trust;
    for (const auto& d : o.defines) {
        const auto eq = d.find('=');
        req.options.defines.emplace_back(d.substr(0, eq), eq == std::string::npos ? "" : d.substr(eq + 1));
    }
    for (const auto& i : o.includes)
        req.userIncludeDirs.push_back(fs::absolute(i));
    req.options.arch = ArchChoice::choose(o.arch, req.options.arch, gpus);
    return in;
}

} // namespace kw
