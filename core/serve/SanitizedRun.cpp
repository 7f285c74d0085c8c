#include "serve/SanitizedRun.hpp"

#include "data/NpyFile.hpp"
#include "doc/PreparedRun.hpp"
#include "run/ComputeSanitizerCommand.hpp"
#include "run/SanitizerLog.hpp"
#include "run/SanitizerXmlReader.hpp"
#include "serve/CheckJobFolder.hpp"
#include "serve/ResultJson.hpp"
#include "serve/RunnerProcess.hpp"
#include "serve/Watchdog.hpp"
#include "util/Error.hpp"
#include "util/Paths.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <fstream>
#include <sstream>

#ifndef _WIN32
#include <poll.h>
#include <unistd.h>
#endif

namespace kw {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

#ifndef _WIN32
std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    if (in)
        s << in.rdbuf();
    return s.str();
}

std::string replaceAll(std::string s, const std::string& what, const std::string& with)
{
    if (what.empty())
        return s;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + with.size()))
        s.replace(at, what.size(), with);
    return s;
}

std::string lastLine(const std::string& text)
{
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r'))
        t.pop_back();
    const std::size_t nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

// The child's own refusal, "kwb-run: document error: buffers[0].count: ...", as that error.
std::optional<Error> childError(const std::string& stderrText, const fs::path& folder)
{
    std::istringstream lines(stderrText);
    std::string line;
    std::optional<Error> found;
    while (std::getline(lines, line)) {
        constexpr std::string_view kPrefix = "kwb-run: ";
        if (line.rfind(kPrefix, 0) != 0)
            continue;
        const std::size_t sep = line.find(" error: ", kPrefix.size());
        if (sep == std::string::npos)
            continue;
        const std::string name = line.substr(kPrefix.size(), sep - kPrefix.size());
        ErrorCategory category = ErrorCategory::Internal;
        for (int c = 0; c <= int(ErrorCategory::Internal); ++c)
            if (name == toString(ErrorCategory(c)))
                category = ErrorCategory(c);
        std::string message = line.substr(sep + 8);
        message = replaceAll(message, folder.string() + "/", "");
        found.emplace(category, message);
    }
    return found;
}

// "; compute-sanitizer said: ...; its last words: ..." for an error message.
std::string detail(const SanitizerLog& log, const std::string& stderrTail)
{
    std::string s;
    if (!log.firstMessage.empty())
        s += "; compute-sanitizer said: " + log.firstMessage;
    if (const std::string last = lastLine(stderrTail); !last.empty())
        s += "; its last output: " + last;
    return s;
}

// Everything the child writes to its stdout, until it closes it (or is killed).
std::string readAll(int fd)
{
    std::string out;
    char chunk[1 << 16];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, -1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            break;
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out.append(chunk, std::size_t(n));
    }
    return out;
}

// The outputs the child wrote as .npy; an `in` buffer holds its initial contents.
void fillBuffers(RunResult& result, const Document& doc, const fs::path& outDir)
{
    if (!result.compile.ok || result.fault)
        return; // no outputs after a fault, as on any run
    bool inputs = false;
    for (BufferResult& b : result.buffers) {
        if (b.direction == Direction::In) {
            inputs = true;
            continue;
        }
        const fs::path file = outDir / (b.name + ".npy");
        std::error_code ec;
        if (fs::is_regular_file(file, ec))
            b.data = NpyFile::read(file).data;
    }
    if (!inputs)
        return;
    const PreparedRun prepared = PreparedRun::fromDocument(doc);
    for (BufferResult& b : result.buffers) {
        if (b.direction != Direction::In)
            continue;
        const auto it = std::find_if(prepared.buffers.begin(), prepared.buffers.end(),
                                     [&](const BufferArg& p) { return p.name == b.name; });
        if (it != prepared.buffers.end())
            b.data = it->data;
    }
}
#endif

} // namespace

SanitizedRun::SanitizedRun(SanitizedRunOptions options)
    : options_(std::move(options))
{
}

double SanitizedRun::childLaunchLimitSeconds(double documentLimitSeconds)
{
    constexpr double kMost = 1e9; // "no limit" stays no limit
    if (!(documentLimitSeconds > 0))
        return 30.0;
    return std::clamp(documentLimitSeconds * 10.0, 30.0, kMost);
}

std::chrono::milliseconds SanitizedRun::jobLimit(const RunSettings& run, const RunOverrides& overrides)
{
    // compute-sanitizer's start (it may wait 60 s for the child), NVRTC (bounded to
    // 120 s elsewhere), then the one launch, which may run to its limit and time out.
    const double launch = childLaunchLimitSeconds(overrides.timeLimitSeconds.value_or(run.timeLimitSeconds));
    const double ms = (180.0 + 2.0 * launch) * 1000.0;
    const double most = double(std::chrono::milliseconds::max().count() / 2);
    return std::chrono::milliseconds(static_cast<long long>(std::min(ms, most)));
}

std::optional<int> SanitizedRun::exitStatusOf(const std::string& exitText)
{
    constexpr std::string_view kExited = "exited with status ";
    if (exitText.rfind(kExited, 0) != 0)
        return std::nullopt;
    try {
        return std::stoi(exitText.substr(kExited.size()));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

fs::path SanitizedRun::kwbRun() const
{
    if (!options_.kwbRun.empty())
        return options_.kwbRun;
#ifdef _WIN32
    return executableDir() / "kwb-run.exe";
#else
    return executableDir() / "kwb-run";
#endif
}

RunResult SanitizedRun::run(const Document& doc, const DeviceInfo& device, CheckTool tool,
                            const RunOverrides& overrides)
{
    const std::string label = fmt::format("compute-sanitizer --tool {}", toString(tool));
#ifdef _WIN32
    (void)doc, (void)device, (void)overrides;
    throw Error(ErrorCategory::Usage,
                "--check on a GPU (" + label + ") is not available on Windows yet; use --device sim");
#else
    const fs::path sanitizer = ComputeSanitizerLocator::require(options_.search);
    const double launchLimit = childLaunchLimitSeconds(overrides.timeLimitSeconds.value_or(doc.run.timeLimitSeconds));
    const CheckJobFolder job(doc, options_.workRoot.empty() ? userCacheDir() / "checks" : options_.workRoot,
                             launchLimit);
    const fs::path outDir = job.folder() / "out";

    ComputeSanitizerCommand command;
    command.sanitizer = sanitizer;
    command.tool = tool;
    command.xmlFile = job.folder() / "report.xml";
    command.logFile = job.folder() / "sanitizer.log";
    command.program = {kwbRun().string(), "run",          job.documentFile().string(), "--device", device.id, "--json",
                       "--out",           outDir.string()};
    if (doc.trust == Trust::Trusted)
        command.program.push_back("--trust"); // the child reads the same document
    if (command.xmlFile.string().find('%') != std::string::npos)
        throw Error(ErrorCategory::Usage,
                    "compute-sanitizer cannot save to " + command.xmlFile.string()
                        + " (it reads % in a file name as a pattern); set KWB_CACHE_DIR");

    // ---- the child, under the job's time limit
    const auto limit = options_.timeLimit.value_or(jobLimit(doc.run, overrides));
    // From its folder: NVRTC's "kernel.cu" is then <folder>/kernel.cu in the report.
#ifdef _WIN32
    RunnerProcess child("cd /d " + ComputeSanitizerCommand::shellQuote(job.folder().string()) + " && "
                        + command.shellLine());
#else
    RunnerProcess child("cd " + ComputeSanitizerCommand::shellQuote(job.folder().string()) + " && exec "
                        + command.shellLine());
#endif
    child.closeInput();
    std::atomic<bool> timedOut{false};
    std::string stdoutText, exitText;
    {
        Watchdog watchdog;
        watchdog.arm(limit, [&] {
            timedOut = true;
            child.kill();
        });
        stdoutText = readAll(child.outputFd());
        exitText = child.wait();
        watchdog.disarm();
    }
    const SanitizerLog log = SanitizerLog::parse(readText(command.logFile));
    const std::string stderrTail = child.stderrTail();

    if (timedOut)
        throw Error(ErrorCategory::Fault,
                    fmt::format("the run under {} did not finish within {} s and was stopped (the tools slow kernels "
                                "down 10 to 100 times: try a smaller problem, or raise run.time_limit_s)",
                                label, limit.count() / 1000));
    const std::optional<int> status = exitStatusOf(exitText);
    if (!status)
        throw Error(ErrorCategory::Fault,
                    fmt::format("kwb-run under {} {} (it crashed){}", label, exitText, detail(log, stderrTail)));

    json j;
    try {
        j = json::parse(stdoutText);
    } catch (const json::exception&) {
        j = nullptr;
    }
    if (!j.is_object()) {
        if (auto e = childError(stderrTail, job.folder()))
            throw *e;
        throw Error(ErrorCategory::Fault,
                    fmt::format("kwb-run under {} {} without a result{}", label, exitText, detail(log, stderrTail)));
    }
    RunResult result = runResultFromJson(j);
    job.relativize(result.compile);
    result.check = tool;

    // ---- the findings
    std::error_code ec;
    if (fs::is_regular_file(command.xmlFile, ec)) {
        const SanitizerReport report = SanitizerXmlReader::readFile(
            command.xmlFile, tool, [&job](const std::string& path) { return job.userPath(path); });
        result.findings = report.findings;
        if (!report.problem.empty())
            result.warnings.push_back(fmt::format("{}: {}; the findings are those before it", label, report.problem));
        if (log.errors && *log.errors > report.records)
            result.warnings.push_back(fmt::format("{} found {} errors; its report lists the first {} (--print-limit)",
                                                  label, *log.errors, report.records));
    } else if (result.compile.ok) {
        result.warnings.push_back(fmt::format("{} wrote no report{}", label, detail(log, "")));
    }
    if (*status == ComputeSanitizerCommand::kFoundErrorsStatus && result.findings.empty()) {
        CheckFinding f;
        f.tool = tool;
        f.kind = "unlisted error";
        f.message = label + " reported errors its report does not list"
            + (log.firstMessage.empty() ? std::string() : ": " + log.firstMessage);
        result.findings.push_back(std::move(f));
    }
    result.ok = result.ok && result.findings.empty();
    if (result.compile.ok && !result.fault)
        result.warnings.push_back(fmt::format("the kernel ran once, instrumented by {}: its timings are not "
                                              "representative",
                                              label));
    fillBuffers(result, doc, outDir);
    return result;
#endif
}

} // namespace kw
