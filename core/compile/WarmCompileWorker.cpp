#include "compile/WarmCompileWorker.hpp"

#include "compile/CompileResultCodec.hpp"
#include "compile/ContentHash.hpp"
#include "compile/PipeExchange.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#ifndef _WIN32
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace kw {

namespace fs = std::filesystem;

namespace {

// Distinct header sets kept before the worker starts afresh: each precompiled header
// of the CUDA headers is about 100 MiB on disk.
constexpr std::size_t kMostKeys = 6;

// An answer "R LENGTH\n..." or "E LENGTH\n...": its kind and body once all of it is here.
bool completeAnswer(const std::string& in, char& kind, std::string& body)
{
    const std::size_t eol = in.find('\n');
    if (eol == std::string::npos || eol < 3 || in[1] != ' ')
        return false;
    const std::size_t length = std::strtoull(in.c_str() + 2, nullptr, 10);
    if (in.size() - eol - 1 < length)
        return false;
    kind = in[0];
    body = in.substr(eol + 1, length);
    return true;
}

} // namespace

WarmCompileWorker::WarmCompileWorker(fs::path worker, bool confined, fs::path pchRoot)
    : process_(std::move(worker))
    , confined_(confined)
    , pchRoot_(std::move(pchRoot))
{
    fs::create_directories(pchRoot_);
}

WarmCompileWorker::~WarmCompileWorker()
{
    stop();
    std::error_code ec;
    fs::remove_all(pchRoot_, ec);
}

#ifndef _WIN32

void WarmCompileWorker::removeAbandonedFolders(const fs::path& parent)
{
    std::error_code ec;
    for (auto it = fs::directory_iterator(parent, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        // Folders are named "PID-N" by the process that made them.
        const std::string name = it->path().filename().string();
        const long pid = std::strtol(name.c_str(), nullptr, 10);
        if (pid > 0 && kill(pid_t(pid), 0) != 0 && errno == ESRCH) {
            std::error_code rc;
            fs::remove_all(it->path(), rc);
        }
    }
}

void WarmCompileWorker::start()
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
        throw Error(ErrorCategory::Internal, std::string("compile worker: pipe: ") + std::strerror(errno));
    const int quiet = open("/dev/null", O_WRONLY | O_CLOEXEC);
    std::vector<std::string> args{"compile-worker", "--many", "--pch-root", pchRoot_.string()};
    if (!confined_)
        args.push_back("--trusted");
    try {
        pid_ = process_.spawn(args, in[0], out[1], quiet);
    } catch (const Error&) {
        for (int fd : {in[0], in[1], out[0], out[1], quiet})
            close(fd);
        throw;
    }
    close(in[0]);
    close(out[1]);
    close(quiet);
    in_ = in[1];
    out_ = out[0];
}

void WarmCompileWorker::stop()
{
    if (in_ >= 0)
        close(in_);
    if (out_ >= 0)
        close(out_);
    in_ = out_ = -1;
    if (pid_ > 0) {
        kill(pid_, SIGKILL);
        while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) { }
    }
    pid_ = -1;
    keys_.clear();
    std::error_code ec;
    for (auto it = fs::directory_iterator(pchRoot_, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        std::error_code rc;
        fs::remove_all(it->path(), rc);
    }
}

CompileResult WarmCompileWorker::run(NvrtcJob job, const std::string& pchKey)
{
    const std::string key = fmt::format("{:016x}", contentHash(pchKey));
    if (!keys_.count(key) && keys_.size() >= kMostKeys)
        stop();
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == pid_) { // ended between jobs
        pid_ = -1;
        stop();
    }
    if (pid_ <= 0)
        start();
    keys_.insert(key);
    const fs::path dir = pchRoot_ / key;
    fs::create_directories(dir);
    job.pchDir = dir.string();

    const std::string json = toJson(job).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string payload = std::to_string(json.size()) + "\n" + json;
    char kind = 0;
    std::string body;
    const PipeExchangeOutcome o
        = PipeExchange::run(in_, payload, false, {out_}, std::chrono::steady_clock::now() + job.timeLimit,
                            [&](const std::vector<std::string>& read) { return completeAnswer(read[0], kind, body); });
    if (!kind && completeAnswer(o.read[0], kind, body)) { } // the answer and the end came together
    if (o.timedOut && !kind) {
        stop();
        return CompileWorkerProcess::timedOutResult(job);
    }
    if (!kind) {
        // The worker ended mid-job: a crash, or the sandbox's limits.
        int status = 0;
        pid_t ended = -1;
        while ((ended = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) { }
        pid_ = -1;
        stop();
        if (ended > 0 && WIFSIGNALED(status))
            return CompileWorkerProcess::crashedResult(job, WTERMSIG(status));
        throw CompileWorkerProcess::machineryError("");
    }
    if (kind == 'E') {
        // A job the worker could not take, or walls that would not rise: it may be gone.
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            stop();
        }
        throw CompileWorkerProcess::machineryError(body);
    }
    CompileResult result;
    if (kind != 'R' || !decodeCompileResult(body, result)) {
        stop();
        throw Error(ErrorCategory::Internal, "the compile worker's answer could not be read");
    }
    return result;
}

#else

void WarmCompileWorker::removeAbandonedFolders(const fs::path&) { }
void WarmCompileWorker::start() { }
void WarmCompileWorker::stop() { }

CompileResult WarmCompileWorker::run(NvrtcJob job, const std::string&) { return process_.run(job); }

#endif

} // namespace kw
