#include "serve/RunCommand.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "doc/DocumentReader.hpp"
#include "launch/PrintfCapture.hpp"
#include "run/DeviceSelector.hpp"
#include "run/ExitCode.hpp"
#include "run/FailureReport.hpp"
#include "run/ProfileReportText.hpp"
#include "run/RunEngine.hpp"
#include "run/SummaryText.hpp"
#include "serve/ResultJson.hpp"
#include "serve/RunOutputFolder.hpp"
#include "serve/SanitizedRun.hpp"
#include "serve/ServeClient.hpp"
#include "util/Error.hpp"
#include "util/FileDescriptor.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <memory>

namespace kw {

RunCommand::RunCommand(RunCommandOptions options, std::FILE* out, std::FILE* err)
    : options_(std::move(options))
    , out_(out)
    , err_(err)
{
}

int RunCommand::execute()
{
    try {
        Document doc = DocumentReader::readFile(options_.file, options_.trust ? Trust::Trusted : Trust::Untrusted);
        if (!options_.l2Flush.empty()) { // --l2-flush: as if the document said so (it travels to a runner with it)
            const auto flush = l2FlushFromString(options_.l2Flush);
            if (!flush)
                throw Error(ErrorCategory::Usage, "--l2-flush takes on, off or auto, not " + options_.l2Flush);
            doc.run.l2Flush = *flush;
        }
        source_ = doc.source;
        return options_.runner.empty() ? runHere(doc) : runOnRunner(doc);
    } catch (const std::exception& e) {
        return FailureReport::print(err_, e);
    }
}

int RunCommand::runHere(const Document& doc)
{
    // Device printf lands on fd 1: move it onto a pipe before the driver loads, and
    // print our own output through the original stdout.
    PrintfCapture capture;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> original(nullptr, &std::fclose);
    std::FILE* out = out_;
    if (!out) {
        original.reset(fd::openStream(fd::duplicate(capture.protocolFd()), "w"));
        out = original.get();
    }
    const std::unique_ptr<Backend> backend = DeviceSelector::open(DeviceSelector::parse(options_.device), &capture);
    RunResult r;
    {
        Compiler compiler(ProgramCache::openDefault());
        RunEngine engine(compiler, *backend);
        SanitizedRun sanitized;
        engine.setExternalCheck(&sanitized);
        r = engine.run(doc, overrides());
    }
    const int code = writeOutputs(r, ExitCode::of(r));
    print(out, r, nullptr);
    std::fflush(out);
    if (backend->stillRunning()) {
        // A kernel is still running: leave without touching the driver again.
        std::fflush(nullptr);
        std::_Exit(code);
    }
    return code;
}

// The document on a runner started by a command line (ssh, srun): its headers and
// initialiser files travel with the job; the outputs come back.
int RunCommand::runOnRunner(const Document& doc)
{
    if (options_.repeat)
        throw Error(ErrorCategory::Usage, "--repeat is not available with --runner; set run.repeats in the document");
    RunResult r;
    RunnerTraffic traffic;
    {
        ServeClient client(options_.runner);
        r = client.run(doc, options_.device, "outputs", {}, overrides());
        traffic = client.lastJob();
    }
    const int code = writeOutputs(r, ExitCode::of(r));
    print(out_ ? out_ : stdout, r, &traffic);
    return code;
}

RunOverrides RunCommand::overrides() const
{
    RunOverrides o;
    o.repeats = options_.repeat;
    if (!options_.check.empty())
        o.check = parseCheckTool(options_.check);
    o.profile.enabled = options_.profile;
    o.stepBuffers = options_.outAfter;
    return o;
}

int RunCommand::writeOutputs(const RunResult& r, int code)
{
    try {
        if (!options_.outDir.empty() && r.compile.ok)
            RunOutputFolder::write(options_.outDir, r);
    } catch (const std::exception& e) {
        fmt::print(err_, "kwb-run: cannot write --out: {}\n", e.what());
        return code == ExitCode::Ok ? ExitCode::BadInput : code;
    }
    return code;
}

void RunCommand::print(std::FILE* out, const RunResult& r, const RunnerTraffic* runner)
{
    if (options_.json) {
        nlohmann::json j = toJson(r, source_);
        if (runner)
            j["runner"]
                = {{"command", options_.runner}, {"bytes_sent", runner->sent}, {"bytes_received", runner->received}};
        fmt::print(out, "{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    } else if (!r.compile.ok) {
        fmt::print(out, "{}", SummaryText::diagnostics(r.compile));
    } else {
        fmt::print(out, "{}", SummaryText::run(r, options_.rawPrintf));
        if (r.profile)
            printProfile(out, r, source_);
        if (runner)
            fmt::print(out, "{}", SummaryText::runner(options_.runner, runner->sent, runner->received));
    }
}

} // namespace kw
