#include "serve/ProcessRestart.hpp"

#include "run/PrintfCapture.hpp"
#include "util/Paths.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef _WIN32
#include <io.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace kw {

#ifdef _WIN32

void ProcessRestart::replaceProcess(const std::string&, PrintfCapture*)
{
    std::fflush(nullptr);
    std::_Exit(kExitRestart);
}

std::string ProcessRestart::readPending(int) { return {}; }

#else

namespace {

constexpr int kPendingFd = 3;

int pendingFile(const std::string& pending)
{
    int fd = memfd_create("kwb-serve-pending", 0);
    if (fd < 0) {
        char path[] = "/tmp/kwb-serve-pending-XXXXXX";
        fd = mkstemp(path);
        if (fd >= 0)
            unlink(path);
    }
    if (fd < 0)
        return -1;
    std::size_t done = 0;
    while (done < pending.size()) {
        ssize_t n = write(fd, pending.data() + done, pending.size() - done);
        if (n <= 0)
            break;
        done += std::size_t(n);
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

} // namespace

void ProcessRestart::replaceProcess(const std::string& pending, PrintfCapture* capture)
{
    // One thread restarts; another that gets here too (the watchdog and the main
    // thread at once) waits for the exec instead of racing it.
    static std::atomic_flag started = ATOMIC_FLAG_INIT;
    if (started.test_and_set())
        for (;;)
            pause();
    if (capture)
        capture->restoreStdout();
    std::fflush(nullptr);
    const std::string exe = executablePath().string();
    int fd = pendingFile(pending);
    if (fd >= 0 && fd != kPendingFd) {
        dup2(fd, kPendingFd); // dup2 clears close-on-exec
        close(fd);
    }
    // Closing every other descriptor (the driver's device files among them) lets
    // the kernel driver tear the old context down, even with a kernel still running.
    const long maxFd = std::min(sysconf(_SC_OPEN_MAX), 65536L);
    for (int i = fd < 0 ? kPendingFd : kPendingFd + 1; i < maxFd; ++i)
        close(i);
    std::string fdArg = std::to_string(kPendingFd);
    char* argv[] = {const_cast<char*>("kwb-run"), const_cast<char*>("serve"),
                    const_cast<char*>("--pending-fd"), fdArg.data(), nullptr};
    if (fd < 0) // nothing could be handed over: the pending bytes are lost, say so
        std::fprintf(stderr, "kwb-run serve: restarting without %zu pending bytes\n", pending.size());
    if (fd < 0)
        argv[2] = nullptr;
    execv(exe.c_str(), argv);
    std::fprintf(stderr, "kwb-run serve: cannot restart %s: %s\n", exe.c_str(), std::strerror(errno));
    std::_Exit(kExitRestart);
}

std::string ProcessRestart::readPending(int fd)
{
    std::string data;
    char chunk[1 << 16];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0)
        data.append(chunk, std::size_t(n));
    close(fd);
    return data;
}

#endif

} // namespace kw
