#pragma once
// Helpers for the tests that start real servers (sshd, a one-node Slurm cluster) on
// this machine: free loopback ports, shell commands, waiting, and the processes a
// runner left behind on the "remote" side.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kwtest {

inline std::string kwbRunPath() { return std::string(KW_BIN_DIR) + "/kwb-run"; }

// A TCP port on 127.0.0.1 that nobody listens on right now.
inline int freeLoopbackPort()
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (s < 0 || ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0
        || ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        throw std::runtime_error("cannot find a free loopback port");
    const int port = ntohs(a.sin_port);
    ::close(s);
    return port;
}

// Runs a shell command; its output (stdout and stderr) and exit status.
struct Shell {
    int status = -1;
    std::string output;
    bool ok() const { return status == 0; }
};
inline Shell shell(const std::string& command)
{
    Shell r;
    std::FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (!p)
        return r;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        r.output.append(buf, n);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

inline bool waitFor(const std::function<bool()>& ready, std::chrono::milliseconds limit)
{
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (ready())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return ready();
}

inline std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline long pidFromFile(const std::filesystem::path& p)
{
    std::ifstream in(p);
    long pid = -1;
    in >> pid;
    return pid;
}

// Processes whose environment holds `marker` (the runner's own cache folder, set
// in its command line): what a dropped connection left running on the far side.
inline std::vector<long> processesWithEnvironment(const std::string& marker)
{
    std::vector<long> pids;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string env = readFile(e.path() / "environ");
        if (env.find(marker) != std::string::npos)
            pids.push_back(std::stol(name));
    }
    return pids;
}

inline void killProcessesWithEnvironment(const std::string& marker)
{
    for (long pid : processesWithEnvironment(marker))
        if (pid != ::getpid())
            ::kill(pid_t(pid), SIGKILL);
}

} // namespace kwtest
