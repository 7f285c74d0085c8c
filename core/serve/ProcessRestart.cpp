#include "serve/ProcessRestart.hpp"

#include "launch/PrintfCapture.hpp"
#include "util/Paths.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace kw {

#ifdef _WIN32

namespace {
HANDLE handover = nullptr;
} // namespace

void ProcessRestart::setHandover(std::intptr_t handle) { handover = reinterpret_cast<HANDLE>(handle); }

void ProcessRestart::replaceProcess(const std::string& pending, PrintfCapture* capture)
{
    if (capture)
        capture->restoreStdout();
    std::fflush(nullptr);
    std::size_t done = 0;
    while (handover && done < pending.size()) {
        DWORD n = 0;
        const DWORD chunk = DWORD(std::min<std::size_t>(pending.size() - done, 1u << 20));
        if (!WriteFile(handover, pending.data() + done, chunk, &n, nullptr) || n == 0)
            break;
        done += n;
    }
    if (done < pending.size())
        std::fprintf(stderr, "kwb-run serve: restarting without %zu pending bytes\n", pending.size() - done);
    std::fflush(nullptr);
    // At once, without the DLLs' exit handlers: a kernel may still be running in a
    // driver thread. The supervisor starts the next runner with the pending bytes.
    TerminateProcess(GetCurrentProcess(), kExitRestart);
    std::_Exit(kExitRestart);
}

std::string ProcessRestart::readPending(std::intptr_t fd)
{
    const HANDLE h = reinterpret_cast<HANDLE>(fd);
    std::string data;
    char chunk[1 << 16];
    DWORD n = 0;
    while (ReadFile(h, chunk, sizeof chunk, &n, nullptr) && n > 0)
        data.append(chunk, n);
    CloseHandle(h);
    return data;
}

#else

namespace {

constexpr int kPendingFd = 3;

int pendingFile(const std::string& pending)
{
    int fd = memfd_create("kwb-serve-pending", 0);
    if (fd < 0) {
        // Without memfd: an unlinked file in the runner user's cache folder, not /tmp.
        std::error_code ec;
        const std::filesystem::path dir = userCacheDir() / "tmp";
        std::filesystem::create_directories(dir, ec);
        std::string path = (dir / "serve-pending-XXXXXX").string();
        fd = mkstemp(path.data());
        if (fd >= 0)
            unlink(path.c_str());
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
    char* argv[] = {const_cast<char*>("kwb-run"), const_cast<char*>("serve"), const_cast<char*>("--pending-fd"),
                    fdArg.data(), nullptr};
    if (fd < 0) // nothing could be handed over: the pending bytes are lost, say so
        std::fprintf(stderr, "kwb-run serve: restarting without %zu pending bytes\n", pending.size());
    if (fd < 0)
        argv[2] = nullptr;
    execv(exe.c_str(), argv);
    std::fprintf(stderr, "kwb-run serve: cannot restart %s: %s\n", exe.c_str(), std::strerror(errno));
    std::_Exit(kExitRestart);
}

std::string ProcessRestart::readPending(std::intptr_t handle)
{
    const int fd = int(handle);
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
