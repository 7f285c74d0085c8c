#include "sim/LaunchSetup.hpp"

#include "sim/ProfileCollector.hpp"
#include "sim/PtxModule.hpp"
#include "util/Error.hpp"

#include <cstring>
#include <fmt/format.h>

namespace kw::sim {

namespace {

// For each module variable, the buffer that fills it (null for none); the sizes must agree.
std::vector<BufferArg*> bindGlobals(const Module& mod, std::vector<BufferArg>& buffers)
{
    std::vector<BufferArg*> bound(mod.globals.size(), nullptr);
    for (auto& b : buffers) {
        if (b.global.empty())
            continue;
        std::size_t gi = 0;
        while (gi < mod.globals.size() && (mod.globals[gi].name != b.global || mod.globals[gi].space == Space::Shared))
            ++gi;
        if (gi == mod.globals.size()) {
            std::string names;
            for (const auto& g : mod.globals)
                if (g.space == Space::Global || g.space == Space::Const)
                    names += (names.empty() ? "" : ", ") + g.name;
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the module has no __constant__ or __device__ variable of that name "
                                    "(it has: {})",
                                    b.global, names.empty() ? "none" : names));
        }
        if (mod.globals[gi].size != b.data.byteSize())
            throw Error(ErrorCategory::Document,
                        fmt::format("global '{}': the variable is {} bytes but the document gives {} bytes", b.global,
                                    mod.globals[gi].size, b.data.byteSize()));
        bound[gi] = &b;
    }
    return bound;
}

// The capture request against the module's files: an empty file is the kernel's main
// file; otherwise the .file whose path is the name or ends in "/name".
std::optional<CaptureTarget> resolveCapture(const Module& mod, const Function& fn, const AccessCaptureRequest& req,
                                            std::vector<std::string>& warnings)
{
    CaptureTarget t;
    t.line = req.line > 0 ? std::uint32_t(req.line) : 0;
    t.block = req.block;
    t.warp = req.warp;
    t.maxSamples = req.maxSamples;
    if (req.file.empty()) {
        t.file = mainFile(fn);
        return t;
    }
    for (std::size_t i = 0; i < mod.files.size(); ++i) {
        const std::string& f = mod.files[i];
        if (f == req.file
            || (f.size() > req.file.size() && f.ends_with(req.file) && f[f.size() - req.file.size() - 1] == '/')) {
            t.file = std::uint16_t(i);
            return t;
        }
    }
    warnings.push_back(fmt::format("sim: profile capture: the module has no source file '{}'", req.file));
    return std::nullopt;
}

} // namespace

LaunchSetup::LaunchSetup(std::shared_ptr<const Module> mod, const Function& fn, std::vector<BufferArg>& buffers,
                         const std::vector<LaunchArg>& args, const LaunchConfig& config, const LaunchSettings& settings,
                         std::vector<std::string>& warnings)
    : mod_(std::move(mod))
    , raceCheck_(settings.raceCheck)
    , findings_(config.check)
{
    L_.mod = mod_.get();
    L_.fn = &fn;
    L_.grid = config.grid;
    L_.block = config.block;
    L_.dynShared = config.sharedBytes;
    L_.sharedSize = mod_->sharedBytes(config.sharedBytes);
    L_.reservedShared = mod_->reservedShared ? mod_->reservedSharedOffset(config.sharedBytes) : 0;
    L_.raceCheck = settings.raceCheck || config.check == CheckTool::Racecheck;
    // The check runs on the first launch; the timed repeats run without it.
    L_.check = config.check;
    if (config.check != CheckTool::None)
        L_.findings = &findings_;
    L_.timeLimitSeconds = config.timeLimitSeconds;
    L_.smCount = settings.smCount;
    L_.profile = config.profile.enabled;
    if (L_.profile && config.profile.capture)
        L_.capture = resolveCapture(*mod_, fn, *config.profile.capture, warnings);
    L_.printfBufferBytes = config.printfBufferBytes;
    std::vector<std::uint64_t> bufferAddress;
    mapMemory(buffers, bufferAddress);
    if (config.check == CheckTool::Initcheck) // what earlier launches, copies and fills left written
        for (std::size_t i = 0; i < settings.written.size() && i < buffers.size(); ++i)
            if (settings.written[i] && bufferAddress[i])
                L_.mem.track(bufferAddress[i], settings.written[i], std::uint32_t(sizeOf(buffers[i].data.dtype())));
    if (args.size() != fn.params.size())
        throw Error(ErrorCategory::Usage,
                    fmt::format("kernel '{}' takes {} parameters but {} arguments were given", settings.kernelName,
                                fn.params.size(), args.size()));
    writeParams(fn, buffers, args, bufferAddress);
}

// Module variables get fresh storage per launch, except those a document buffer fills:
// that buffer is the variable's storage. Other buffers are mapped where they lie.
void LaunchSetup::mapMemory(std::vector<BufferArg>& buffers, std::vector<std::uint64_t>& bufferAddress)
{
    const Module& mod = *mod_;
    bound_ = bindGlobals(mod, buffers);
    for (std::size_t gi = 0; gi < mod.globals.size(); ++gi) {
        const GlobalVar& g = mod.globals[gi];
        if (g.space == Space::Shared)
            continue;
        storage_.push_back(g.init);
        auto& storage = storage_.back();
        if (storage.empty())
            storage.resize(1);
        std::uint8_t* host = bound_[gi] ? reinterpret_cast<std::uint8_t*>(bound_[gi]->data.data()) : storage.data();
        L_.mem.map(fmt::format("{} variable '{}'", g.space == Space::Const ? "constant" : "global", g.name), host,
                   g.size, g.space == Space::Const, g.address);
    }
    bufferAddress.assign(buffers.size(), 0);
    for (std::size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].global.empty())
            bufferAddress[i] = L_.mem.map(fmt::format("buffer '{}'", buffers[i].name),
                                          reinterpret_cast<std::uint8_t*>(buffers[i].data.data()),
                                          buffers[i].data.byteSize(), false);
}

void LaunchSetup::writeParams(const Function& fn, const std::vector<BufferArg>& buffers,
                              const std::vector<LaunchArg>& args, const std::vector<std::uint64_t>& bufferAddress)
{
    L_.params.assign(fn.paramBytes, 0);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const ParamDecl& p = fn.params[i];
        if (args[i].isBuffer) {
            if (args[i].buffer >= buffers.size() || !buffers[args[i].buffer].global.empty())
                throw Error(ErrorCategory::Usage,
                            fmt::format("argument {} names buffer {} of {}", i + 1, args[i].buffer, buffers.size()));
            if (p.size != 8)
                throw Error(ErrorCategory::Usage,
                            fmt::format("parameter {} ('{}') is not a pointer but a buffer was passed", i + 1, p.name));
            const std::uint64_t address = bufferAddress[args[i].buffer] + args[i].offsetBytes;
            std::memcpy(L_.params.data() + p.offset, &address, 8);
        } else {
            if (args[i].bytes.size() != p.size)
                throw Error(ErrorCategory::Usage,
                            fmt::format("parameter {} ('{}') takes {} bytes but the argument has {}", i + 1, p.name,
                                        p.size, args[i].bytes.size()));
            std::memcpy(L_.params.data() + p.offset, args[i].bytes.data(), p.size);
        }
    }
}

void LaunchSetup::plainFromNowOn()
{
    L_.profile = false;
    L_.capture.reset();
    L_.check = CheckTool::None;
    L_.findings = nullptr;
    L_.raceCheck = raceCheck_;
}

void LaunchSetup::restoreVariables()
{
    for (std::size_t g = 0, k = 0; g < mod_->globals.size(); ++g)
        if (mod_->globals[g].space != Space::Shared) {
            auto& storage = storage_[k++];
            if (bound_[g])
                continue; // restored with the buffers
            std::copy(mod_->globals[g].init.begin(), mod_->globals[g].init.end(), storage.begin());
        }
}

} // namespace kw::sim
