#include "run/CompileInput.hpp"

#include "doc/DefineValues.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/StepPaths.hpp"
#include "run/RunEngine.hpp"
#include "util/Error.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
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

// Each launch step's shape as far as it is known before running: the pass index of a
// repeat around it is taken as 0, and said so where the shape depends on it; a shape that
// reads a buffer is not known.
std::vector<CompileInput::StepLaunch> stepLaunches(const Document& doc)
{
    VariableScope first = documentScope(doc), second = first;
    for (const auto& [path, step] : StepPaths::list(doc.steps))
        if (!step->index.empty()) {
            first.set(step->index, 0);
            second.set(step->index, 1);
        }
    std::vector<CompileInput::StepLaunch> out;
    for (const auto& [path, step] : StepPaths::list(doc.steps)) {
        if (step->kind != StepSpec::Kind::Launch)
            continue;
        CompileInput::StepLaunch s{path, step->name, step->kernel, std::nullopt, {}};
        const std::string field = "steps " + path;
        try {
            s.launch = evaluateLaunch(step->launch, first, field);
            const LaunchDims later = evaluateLaunch(step->launch, second, field);
            if (!(later.grid == s.launch->grid && later.block == s.launch->block
                  && later.sharedBytes == s.launch->sharedBytes))
                s.note = "its launch depends on a pass index: shown for the first pass";
        } catch (const std::exception& e) {
            s.launch.reset();
            s.note = std::string("its launch cannot be known before running: ") + e.what();
            std::string text = step->launch.sharedBytes;
            for (const auto* dims : {&step->launch.grid, &step->launch.block})
                for (const std::string& d : *dims)
                    text += " " + d;
            for (const BufferSpec& b : doc.buffers)
                if (std::regex_search(text, std::regex("\\b" + b.name + "\\s*\\(")))
                    s.note = "its launch reads buffer " + b.name + ", known only while running";
        }
        out.push_back(std::move(s));
    }
    return out;
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
        if (!doc.isSequence()) {
            in.launch = evaluateLaunch(doc.launch, documentScope(doc));
            in.kernel = doc.kernel;
        } else
            in.steps = stepLaunches(doc);
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
