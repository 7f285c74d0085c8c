#pragma once
// Runs kwb-run (from KW_BIN_DIR) to completion in a given working directory, stdin
// from a file and stdout/stderr into files, killed after a time limit and kept to an
// address-space limit (0: none). POSIX only.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kw::test {

struct KwbOutcome {
    int exitCode = -1;   // exit status, or 128 + signal
    bool killed = false; // ran past the time limit
    std::string out, err;
};

inline std::string readWholeFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline KwbOutcome runKwbIn(const std::filesystem::path& cwd, const std::vector<std::string>& args,
                           const std::filesystem::path& stdinFile, const std::filesystem::path& ioDir,
                           std::chrono::seconds limit, rlim_t addressSpaceLimit)
{
    const auto outPath = ioDir / "stdout", errPath = ioDir / "stderr";
    // KW_ROBUSTNESS_KWB_RUN runs the suite against another build (an installed package).
    const char* other = std::getenv("KW_ROBUSTNESS_KWB_RUN");
    std::vector<std::string> all{other && *other ? std::string(other) : std::string(KW_BIN_DIR) + "/kwb-run"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (pid == 0) {
        const int in = open(stdinFile.empty() ? "/dev/null" : stdinFile.c_str(), O_RDONLY);
        const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0
            || chdir(cwd.c_str()) != 0)
            _exit(126);
        // A case that loses its bounds must fail, not take the machine's memory. The
        // sanitizers reserve far more address space than they use, so they go without.
        if (addressSpaceLimit) {
            rlimit lim{addressSpaceLimit, addressSpaceLimit};
            setrlimit(RLIMIT_AS, &lim);
        }
        execv(all[0].c_str(), argv.data());
        _exit(127);
    }

    KwbOutcome r;
    int status = 0;
    const auto end = std::chrono::steady_clock::now() + limit;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (std::chrono::steady_clock::now() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            r.killed = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = readWholeFile(outPath);
    r.err = readWholeFile(errPath);
    return r;
}

} // namespace kw::test
