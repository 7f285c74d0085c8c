// CompilerSandbox: the walls the compile worker raises, tried from a child process of
// the test (they are for good): it reads beneath the folders it was given and nowhere
// else, writes nothing, opens no socket, starts no process, and may still start threads
// (NVRTC's --split-compile).
#include "compile/CompilerSandbox.hpp"
#include "support/TempDir.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#ifndef __linux__
// Landlock and seccomp are Linux's; elsewhere the sandbox is unavailable and untrusted
// compiles are refused (test_document_trust covers the refusal).
TEST(CompilerSandbox, IsLinuxOnly) { GTEST_SKIP() << "the compiler's sandbox exists on Linux only"; }
#else

#include <cerrno>
#include <fcntl.h>
#include <fstream>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

bool canRead(const fs::path& p)
{
    const int fd = open(p.c_str(), O_RDONLY);
    if (fd < 0)
        return false;
    char c;
    const bool ok = read(fd, &c, 1) == 1;
    close(fd);
    return ok;
}

enum Finding : int {
    ReadsAllowed = 1,
    SecretRefused = 2,
    WriteRefused = 4,
    SocketRefused = 8,
    ForkRefused = 16,
    ThreadsWork = 32,
    EnterFailed = 64,
};

// What a child behind the walls could and could not do, as Finding bits.
int tryInSandbox(const kw::SandboxPolicy& policy, const fs::path& allowed, const fs::path& secret,
                 const fs::path& writable)
{
    const pid_t pid = fork();
    if (pid == 0) {
        try {
            kw::CompilerSandbox::enter(policy);
        } catch (const kw::Error&) {
            _exit(EnterFailed);
        }
        int found = 0;
        if (canRead(allowed))
            found |= ReadsAllowed;
        if (!canRead(secret) && errno == EACCES)
            found |= SecretRefused;
        const int w = open((writable / "made-in-sandbox").c_str(), O_CREAT | O_WRONLY, 0600);
        if (w < 0)
            found |= WriteRefused;
        if (socket(AF_INET, SOCK_STREAM, 0) < 0 && socket(AF_UNIX, SOCK_STREAM, 0) < 0)
            found |= SocketRefused;
        const pid_t child = fork();
        if (child == 0)
            _exit(0);
        if (child < 0)
            found |= ForkRefused;
        bool ran = false;
        try {
            std::thread([&] { ran = true; }).join();
        } catch (...) {
        }
        if (ran)
            found |= ThreadsWork;
        _exit(found);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Files {
    fs::path dir, allowed, secret, writable;
};

Files files(const std::string& name)
{
    Files f;
    f.dir = kw::test::freshDir("kw_sandbox", name);
    fs::create_directories(f.dir / "allowed");
    fs::create_directories(f.dir / "elsewhere");
    f.allowed = f.dir / "allowed" / "header.h";
    f.secret = f.dir / "elsewhere" / "id_rsa";
    f.writable = f.dir / "elsewhere";
    std::ofstream(f.allowed) << "// a header\n";
    std::ofstream(f.secret) << "PRIVATE KEY\n";
    return f;
}

TEST(CompilerSandbox, IsAvailableOnThisLinux)
{
    EXPECT_TRUE(kw::CompilerSandbox::available()) << kw::CompilerSandbox::unavailableReason();
}

TEST(CompilerSandbox, AConfinedWorkerReadsOnlyItsFoldersAndReachesNothingElse)
{
    const Files f = files("confined");
    kw::SandboxPolicy policy;
    policy.readable = {f.dir / "allowed"};
    const int found = tryInSandbox(policy, f.allowed, f.secret, f.writable);
    EXPECT_EQ(found, ReadsAllowed | SecretRefused | WriteRefused | SocketRefused | ForkRefused | ThreadsWork);
    EXPECT_FALSE(fs::exists(f.writable / "made-in-sandbox"));
}

TEST(CompilerSandbox, AnUnconfinedWorkerReadsFilesButStillHasNoSocketsOrProcesses)
{
    const Files f = files("open");
    kw::SandboxPolicy policy;
    policy.confined = false;
    const int found = tryInSandbox(policy, f.allowed, f.secret, f.writable);
    EXPECT_EQ(found & (ReadsAllowed | SecretRefused | SocketRefused | ForkRefused | ThreadsWork),
              ReadsAllowed | SocketRefused | ForkRefused | ThreadsWork);
}

TEST(CompilerSandbox, WithoutLandlockAConfinedWorkerRefusesToStart)
{
    const Files f = files("nolandlock");
    ::setenv("KWB_TEST_NO_LANDLOCK", "1", 1);
    EXPECT_FALSE(kw::CompilerSandbox::available());
    EXPECT_NE(kw::CompilerSandbox::unavailableReason().find("Landlock"), std::string::npos);
    kw::SandboxPolicy policy;
    policy.readable = {f.dir / "allowed"};
    const int found = tryInSandbox(policy, f.allowed, f.secret, f.writable);
    ::unsetenv("KWB_TEST_NO_LANDLOCK");
    EXPECT_EQ(found, EnterFailed);
}

TEST(CompilerSandbox, TheCompilersFoldersAreTheInstalledHeadersAndNvrtcs)
{
    const auto folders = kw::CompilerSandbox::compilerFolders();
    ASSERT_GE(folders.size(), 2u);
    bool headers = false, nvrtc = false;
    for (const auto& d : folders) {
        headers = headers || fs::exists(d / "cuda_fp16.h");
        for (const auto& e : fs::directory_iterator(d))
            nvrtc = nvrtc || e.path().filename().string().rfind("libnvrtc", 0) == 0;
    }
    EXPECT_TRUE(headers);
    EXPECT_TRUE(nvrtc);
}

} // namespace

#endif // __linux__
