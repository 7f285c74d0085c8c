#include "run/RunEngine.hpp"

#include "compile/SignatureParser.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/DefineValues.hpp"
#include "doc/PreparedRun.hpp"
#include "doc/StepPaths.hpp"
#include "run/ArgumentCheck.hpp"
#include "run/ExternalCheck.hpp"
#include "run/PrintfLineParser.hpp"
#include "run/SequenceRun.hpp"
#include "run/TimingDetailText.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <future>
#include <map>

namespace kw {

namespace {

// "scale<float,128>" -> "scale"
std::string baseName(const std::string& kernel)
{
    const auto lt = kernel.find('<');
    std::string name = lt == std::string::npos ? kernel : kernel.substr(0, lt);
    while (!name.empty() && name.back() == ' ')
        name.pop_back();
    return name;
}

// A GPU's checks are compute-sanitizer's: the whole run goes under it, in a child.
bool checksOutside(const DeviceInfo& device) { return device.id.rfind("cuda:", 0) == 0; }

} // namespace

CompiledKernel RunEngine::compiledKernel(const CompileResult& compiled, const std::string& kernel)
{
    const auto lowered = compiled.loweredNames.find(kernel);
    if (lowered == compiled.loweredNames.end())
        throw Error(ErrorCategory::Document,
                    fmt::format("kernel: \"{}\" was not lowered by NVRTC (is it a __global__ function of "
                                "the source?)",
                                kernel));
    CompiledKernel k;
    KernelImage& image = k.image;
    image.name = kernel;
    image.loweredName = lowered->second;
    image.ptx = compiled.ptx;
    image.cubin = compiled.cubin;
    const auto entry = std::find_if(compiled.entries.begin(), compiled.entries.end(),
                                    [&](const PtxEntry& e) { return e.name == image.loweredName; });
    if (entry == compiled.entries.end())
        throw Error(ErrorCategory::Internal,
                    fmt::format("kernel {}: no .entry {} in the PTX", kernel, image.loweredName));
    image.entry = *entry;
    const std::string base = baseName(kernel);
    const auto sig = std::find_if(compiled.kernels.begin(), compiled.kernels.end(),
                                  [&](const KernelSignature& s) { return s.name == base; });
    // Overloads make the signature ambiguous; the PTX sizes still decide.
    const bool unique = sig != compiled.kernels.end()
        && std::count_if(compiled.kernels.begin(), compiled.kernels.end(),
                         [&](const KernelSignature& s) { return s.name == base; })
            == 1;
    if (!unique)
        return k;
    k.signature = *sig;
    // A template's parameters as this instantiation has them (`T* x` of fill<int> is an int*),
    // so the buffers' element types are checked against them.
    if (!sig->templateParams.empty()) {
        try {
            k.signature = instantiate(*sig, kernel);
        } catch (const Error&) {
            k.signature.reset(); // the document's validation says why; the PTX sizes still decide
        }
    }
    return k;
}

namespace {

// Every step path --out-after / step_buffers names must be a step of the document ("*",
// every step, is none at all in a document of one launch).
void checkStepBuffers(const Document& doc, const std::vector<std::string>& paths)
{
    const bool onlyAll = std::all_of(paths.begin(), paths.end(), [](const std::string& p) { return p == "*"; });
    if (onlyAll)
        return;
    if (!doc.isSequence())
        throw Error(ErrorCategory::Usage,
                    "buffers after a step were asked for, but the document is one launch, without steps");
    std::vector<std::string> known;
    for (const auto& [path, step] : StepPaths::list(doc.steps))
        known.push_back(path);
    for (const std::string& p : paths)
        if (p != "*" && std::find(known.begin(), known.end(), p) == known.end())
            throw Error(ErrorCategory::Usage,
                        fmt::format("buffers after step \"{}\" were asked for, but the document has no such step "
                                    "(its steps: {})",
                                    p, fmt::join(known, ", ")));
}

// The warning of a profiled run on a backend that does not count.
std::string noPerLineCounts(const DeviceInfo& device)
{
    return fmt::format("profile: the {} backend does not count per line; the simulator does",
                       device.id.empty() ? "selected" : device.id);
}

} // namespace

RunEngine::RunEngine(Compiler& compiler, Backend& backend, PreparedRunCache* inputs)
    : compiler_(compiler)
    , backend_(backend)
    , inputs_(inputs)
{
}

void RunEngine::stage(const std::string& name) const
{
    if (onStage_)
        onStage_(name);
}

std::uint64_t RunEngine::bytesMoved(const std::vector<BufferArg>& buffers)
{
    std::uint64_t bytes = 0;
    for (const auto& b : buffers)
        bytes += b.data.byteSize() * (b.direction == Direction::InOut ? 2u : 1u);
    return bytes;
}

CompileRequest RunEngine::compileRequest(const Document& doc)
{
    CompileRequest request;
    request.source = doc.source;
    request.sourceName = doc.sourceName();
    request.baseDir = doc.baseDir();
    request.options = doc.options;
    try {
        VariableScope scope = VariableScope::evaluate(doc.variables);
        request.options.defines = resolveDefines(doc.options.defines, scope);
    } catch (const Error&) {
        // A bad variable is reported when the inputs are prepared; compile the defines as written.
    }
    request.nameExpressions = doc.kernelNames();
    request.trust = doc.trust;
    return request;
}

CompileResult RunEngine::compile(const Document& doc)
{
    CompileRequest request = compileRequest(doc);
    request.options.arch = backend_.archFor(doc.options.arch);
    return compiler_.compile(request);
}

RunResult RunEngine::runExternalCheck(const Document& doc, const RunOverrides& overrides, CheckTool tool)
{
    const DeviceInfo device = backend_.device();
    if (!externalCheck_)
        throw Error(ErrorCategory::Usage,
                    fmt::format("--check {} on {} runs under compute-sanitizer, which this program cannot start; "
                                "use kwb-run, or --device sim",
                                toString(tool), device.id));
    stage("launch"); // compile, launch and the tool's run, all in the child
    RunResult result = externalCheck_->run(doc, device, tool, overrides);
    result.check = tool;
    return result;
}

RunResult RunEngine::runSequence(const Document& doc, const RunOverrides& overrides, RunResult result,
                                 PreparedRun prepared)
{
    std::map<std::string, CompiledKernel> kernels;
    for (const std::string& name : doc.kernels)
        kernels.emplace(name, compiledKernel(result.compile, name));
    LaunchConfig shared = prepared.config;
    if (overrides.timeLimitSeconds)
        shared.timeLimitSeconds = *overrides.timeLimitSeconds;
    shared.check = overrides.check.value_or(CheckTool::None); // the backend's own checks (the simulator's)
    if (overrides.repeats || overrides.warmup)
        result.warnings.push_back("--repeat and --warmup do not apply to a document of steps: each launch runs once");
    if (overrides.profile.enabled)
        shared.profile = overrides.profile; // every launch step, each counted apart (StepResult::profile)
    stage("launch");
    SequenceRun sequence(doc, std::move(kernels), std::move(prepared), backend_, shared);
    sequence.keepBuffersAfter(overrides.stepBuffers, overrides.stepBufferLimitBytes);
    sequence.onStep(onStep_);
    sequence.run(result);
    result.check = shared.check;
    if (shared.profile.enabled && !result.profile)
        result.warnings.push_back(noPerLineCounts(result.device));
    if (!result.steps.empty()) { // the launch fields show the first launch's shape
        const auto first = std::find_if(result.steps.begin(), result.steps.end(),
                                        [](const StepResult& s) { return s.kind == "launch" && s.runs > 0; });
        if (first != result.steps.end()) {
            result.grid = first->grid;
            result.block = first->block;
            result.sharedBytes = first->sharedBytes;
        }
    }
    return result;
}

RunResult RunEngine::run(const Document& doc, const RunOverrides& overrides)
{
    const CheckTool check = overrides.check.value_or(CheckTool::None);
    checkStepBuffers(doc, overrides.stepBuffers);
    if (check != CheckTool::None && checksOutside(backend_.device()))
        return runExternalCheck(doc, overrides, check);

    RunResult result;
    result.device = backend_.device();

    // Inputs do not depend on the compile: build them while NVRTC works. A
    // document error surfaces once the compile has succeeded, as before.
    std::future<PreparedRun> preparing = std::async(
        std::launch::async, [this, &doc] { return inputs_ ? inputs_->prepare(doc) : PreparedRun::fromDocument(doc); });

    stage("compile");
    result.compile = compile(doc);
    result.timings.compileMs = result.compile.compileMs;
    if (!result.compile.ok) {
        preparing.wait();
        return result;
    }

    if (doc.isSequence())
        return runSequence(doc, overrides, std::move(result), preparing.get());

    const CompiledKernel kernel = compiledKernel(result.compile, doc.kernel);
    const KernelImage& image = kernel.image;

    stage("upload");
    PreparedRun prepared = preparing.get();
    result.warnings = ArgumentCheck::check(doc.kernel, image.entry, kernel.signature ? &*kernel.signature : nullptr,
                                           doc.args, prepared.args, prepared.buffers);
    LaunchConfig config = prepared.config;
    if (overrides.repeats)
        config.repeats = *overrides.repeats;
    if (overrides.warmup)
        config.warmup = *overrides.warmup;
    if (overrides.timeLimitSeconds)
        config.timeLimitSeconds = *overrides.timeLimitSeconds;
    if (check != CheckTool::None)
        config.check = check; // the backend's own checks (the simulator's)
    if (overrides.profile.enabled)
        config.profile = overrides.profile;
    result.grid = config.grid;
    result.block = config.block;
    result.sharedBytes = config.sharedBytes;

    std::vector<BufferArg> initial;
    if (CheckEvaluator::usesInitialData(doc.checks))
        initial = prepared.buffers;

    // A buffer no argument passes (and no global) is a reference for the checks: never uploaded.
    std::vector<std::size_t> launchedIndex(prepared.buffers.size(), SIZE_MAX);
    for (const LaunchArg& a : prepared.args)
        if (a.isBuffer && a.buffer < launchedIndex.size())
            launchedIndex[a.buffer] = 0;
    std::vector<BufferArg> launched;
    for (std::size_t i = 0; i < prepared.buffers.size(); ++i)
        if (launchedIndex[i] == 0 || !prepared.buffers[i].global.empty()) {
            launchedIndex[i] = launched.size();
            launched.push_back(std::move(prepared.buffers[i]));
        }
    std::vector<LaunchArg> launchArgs = prepared.args;
    for (LaunchArg& a : launchArgs)
        if (a.isBuffer)
            a.buffer = launchedIndex[a.buffer];

    stage("launch");
    LaunchReport report = backend_.launch(image, launched, launchArgs, config);
    const std::uint64_t moved = bytesMoved(launched);
    for (std::size_t i = 0; i < prepared.buffers.size(); ++i)
        if (launchedIndex[i] != SIZE_MAX)
            prepared.buffers[i] = std::move(launched[launchedIndex[i]]);

    result.fault = report.fault;
    result.check = config.check;
    result.findings = std::move(report.findings);
    result.profile = std::move(report.profile);
    if (config.profile.enabled && !result.profile)
        result.warnings.push_back(noPerLineCounts(result.device));
    result.printf = PrintfLineParser::parse(report.printfOutput);
    result.printf.truncated = report.printfMaybeTruncated;
    result.warnings.insert(result.warnings.end(), report.warnings.begin(), report.warnings.end());
    const KernelTimings& kt = report.timings;
    RunTimings& t = result.timings;
    t.moduleLoadMs = kt.moduleLoadMs;
    t.h2dMs = kt.h2dMs;
    t.d2hMs = kt.d2hMs;
    t.kernelMs = kt.repeatMs;
    t.minMs = kt.minMs;
    t.medianMs = kt.medianMs;
    t.meanMs = kt.meanMs;
    t.detail = kt.detail;
    if (const std::string clock = TimingDetailText::clockWarning(t.detail); !clock.empty())
        result.warnings.push_back(clock);
    t.bytesMoved = moved;
    if (t.medianMs > 0)
        t.gbps = double(t.bytesMoved) / (t.medianMs * 1e-3) / 1e9;

    if (report.ok && !report.fault) {
        stage("checks");
        result.checks = prepared.evaluateChecks(doc, initial.empty() ? nullptr : &initial);
    }
    result.ok = report.ok && !report.fault && result.findings.empty()
        && std::all_of(result.checks.begin(), result.checks.end(), [](const CheckResult& c) { return c.passed; });

    for (std::size_t i = 0; i < prepared.buffers.size(); ++i) {
        BufferResult b;
        b.name = prepared.buffers[i].name;
        b.direction = prepared.buffers[i].direction;
        b.shape = i < prepared.shapes.size() ? prepared.shapes[i]
                                             : std::vector<std::size_t>{prepared.buffers[i].data.count()};
        b.data = std::move(prepared.buffers[i].data);
        result.buffers.push_back(std::move(b));
    }
    return result;
}

} // namespace kw
