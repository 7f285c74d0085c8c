#include "compile/CompilerSandbox.hpp"

#include "compile/Compiler.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "util/Error.hpp"
#include "util/SystemMemory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <system_error>

#ifdef __linux__
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace kw {

namespace fs = std::filesystem;

#ifdef __linux__

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// The kernel's ABI, as landlock_create_ruleset states it; the struct of the newest ABI
// we use (a kernel takes a shorter one from an older ABI: its size says which).
struct RulesetAttr {
    std::uint64_t handledAccessFs = 0;
    std::uint64_t handledAccessNet = 0; // ABI 4
    std::uint64_t scoped = 0;           // ABI 6
};

struct __attribute__((packed)) PathBeneathAttr {
    std::uint64_t allowedAccess;
    std::int32_t parentFd;
};

constexpr std::uint64_t kFsAbi1 = (1ULL << 13) - 1; // EXECUTE .. MAKE_SYM
constexpr std::uint64_t kFsRefer = 1ULL << 13;      // ABI 2
constexpr std::uint64_t kFsTruncate = 1ULL << 14;   // ABI 3
constexpr std::uint64_t kFsIoctlDev = 1ULL << 15;   // ABI 5
constexpr std::uint64_t kNetBindTcp = 1ULL << 0, kNetConnectTcp = 1ULL << 1;
constexpr std::uint64_t kScopeAbstractUnix = 1ULL << 0, kScopeSignal = 1ULL << 1;
constexpr std::uint64_t kReadFile = LANDLOCK_ACCESS_FS_READ_FILE;
constexpr std::uint64_t kReadDir = LANDLOCK_ACCESS_FS_READ_DIR;

int landlockAbi()
{
    const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : int(abi);
}

bool pretendNoLandlock()
{
    const char* v = std::getenv("KWB_TEST_NO_LANDLOCK");
    return v && std::strcmp(v, "1") == 0;
}

[[noreturn]] void refuse(const std::string& what)
{
    throw Error(ErrorCategory::Untrusted,
                "the compiler's sandbox could not be raised (" + what + ": " + std::strerror(errno)
                    + "), so nothing was compiled");
}

class FileHandle {
public:
    explicit FileHandle(int fd)
        : fd_(fd)
    {
    }
    ~FileHandle()
    {
        if (fd_ >= 0)
            close(fd_);
    }
    FileHandle(const FileHandle&) = delete;
    FileHandle& operator=(const FileHandle&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

void confineFileSystem(const std::vector<fs::path>& readable, const std::vector<fs::path>& writable)
{
    const int abi = landlockAbi();
    if (abi < 1) {
        errno = ENOSYS;
        refuse("Landlock");
    }
    RulesetAttr attr;
    attr.handledAccessFs = kFsAbi1;
    if (abi >= 2)
        attr.handledAccessFs |= kFsRefer;
    if (abi >= 3)
        attr.handledAccessFs |= kFsTruncate;
    if (abi >= 5)
        attr.handledAccessFs |= kFsIoctlDev;
    std::size_t attrSize = sizeof(std::uint64_t);
    if (abi >= 4) {
        attr.handledAccessNet = kNetBindTcp | kNetConnectTcp;
        attrSize += sizeof(std::uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = kScopeAbstractUnix | kScopeSignal;
        attrSize += sizeof(std::uint64_t);
    }
    const FileHandle ruleset(int(syscall(SYS_landlock_create_ruleset, &attr, attrSize, 0)));
    if (ruleset.get() < 0)
        refuse("landlock_create_ruleset");
    for (const fs::path& p : readable) {
        const FileHandle dir(open(p.c_str(), O_PATH | O_CLOEXEC));
        if (dir.get() < 0)
            continue; // a folder that is not there holds nothing to read
        std::error_code ec;
        const bool isDir = fs::is_directory(p, ec);
        PathBeneathAttr rule{isDir ? (kReadFile | kReadDir) : kReadFile, dir.get()};
        if (syscall(SYS_landlock_add_rule, ruleset.get(), LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0)
            refuse("landlock_add_rule " + p.string());
    }
    // Files made, rewritten and removed there; no folders, links or devices.
    std::uint64_t write = kReadFile | kReadDir | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_FILE
        | LANDLOCK_ACCESS_FS_MAKE_REG;
    if (abi >= 3)
        write |= kFsTruncate;
    for (const fs::path& p : writable) {
        const FileHandle dir(open(p.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (dir.get() < 0)
            refuse("open " + p.string());
        PathBeneathAttr rule{write, dir.get()};
        if (syscall(SYS_landlock_add_rule, ruleset.get(), LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0)
            refuse("landlock_add_rule " + p.string());
    }
    if (syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0)
        refuse("landlock_restrict_self");
}

// Threads already running would stay outside the Landlock domain: raise the walls first.
void requireSingleThread()
{
    std::error_code ec;
    std::size_t threads = 0;
    for (auto it = fs::directory_iterator("/proc/self/task", ec); !ec && it != fs::directory_iterator();
         it.increment(ec))
        ++threads;
    if (threads != 1) {
        errno = EBUSY;
        refuse("the worker has " + std::to_string(threads) + " threads");
    }
}

void filterSystemCalls()
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        refuse("seccomp_init");
    struct Free {
        scmp_filter_ctx c;
        ~Free() { seccomp_release(c); }
    } freeCtx{ctx};
    // NVRTC reads headers and writes to its pipes; none of these has a use there.
    static const int denied[] = {
        SCMP_SYS(socket),
        SCMP_SYS(socketpair),
        SCMP_SYS(connect),
        SCMP_SYS(bind),
        SCMP_SYS(listen),
        SCMP_SYS(accept),
        SCMP_SYS(accept4),
        SCMP_SYS(execve),
        SCMP_SYS(execveat),
        SCMP_SYS(fork),
        SCMP_SYS(vfork),
        SCMP_SYS(ptrace),
        SCMP_SYS(process_vm_readv),
        SCMP_SYS(process_vm_writev),
        SCMP_SYS(mount),
        SCMP_SYS(umount2),
        SCMP_SYS(pivot_root),
        SCMP_SYS(chroot),
        SCMP_SYS(setns),
        SCMP_SYS(unshare),
        SCMP_SYS(keyctl),
        SCMP_SYS(add_key),
        SCMP_SYS(request_key),
        SCMP_SYS(bpf),
        SCMP_SYS(perf_event_open),
        SCMP_SYS(userfaultfd),
        SCMP_SYS(kexec_load),
        SCMP_SYS(init_module),
        SCMP_SYS(finit_module),
        SCMP_SYS(delete_module),
        SCMP_SYS(io_uring_setup),
        SCMP_SYS(open_by_handle_at),
        SCMP_SYS(name_to_handle_at),
        SCMP_SYS(kill),
        SCMP_SYS(tkill),
        SCMP_SYS(personality),
    };
    for (int sc : denied)
        if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), sc, 0) != 0)
            refuse("seccomp_rule_add");
    // Threads (CLONE_THREAD) for --split-compile, never a new process; clone3 hides its
    // flags from the filter, so it answers ENOSYS and the C library falls back to clone.
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0))
            != 0
        || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) != 0)
        refuse("seccomp_rule_add clone");
    if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) != 0 || seccomp_load(ctx) != 0)
        refuse("seccomp_load");
}

void limit(int resource, rlim_t value, const char* name)
{
    rlimit now{};
    getrlimit(resource, &now);
    const rlim_t soft = std::min(value, now.rlim_max);
    const rlimit want{soft, soft};
    if (setrlimit(resource, &want) != 0)
        refuse(std::string("setrlimit ") + name);
}

rlim_t cores() { return std::max<rlim_t>(1, rlim_t(sysconf(_SC_NPROCESSORS_ONLN))); }

// CPU seconds for a job of `timeLimit`: all threads together, with some slack.
rlim_t cpuSeconds(std::chrono::milliseconds timeLimit)
{
    return rlim_t(std::chrono::duration_cast<std::chrono::seconds>(timeLimit).count() + 1) * cores() + 5;
}

void limitResources(const SandboxPolicy& policy)
{
    constexpr rlim_t GiB = rlim_t(1) << 30;
    // Address space: half the machine's memory, between 4 and 16 GiB, so a runaway
    // template instantiation ends the worker rather than the machine.
    const rlim_t memory = std::clamp<rlim_t>(rlim_t(physicalMemoryBytes() / 2), 4 * GiB, 16 * GiB);
    if (!kAddressSanitizer) // its shadow memory alone is terabytes of address space
        limit(RLIMIT_AS, memory, "RLIMIT_AS");
    // A precompiled header of a few CUDA headers is about 100 MiB.
    limit(RLIMIT_FSIZE, policy.writable.empty() ? rlim_t(16) << 20 : GiB, "RLIMIT_FSIZE");
    limit(RLIMIT_CORE, 0, "RLIMIT_CORE");
    limit(RLIMIT_NOFILE, 256, "RLIMIT_NOFILE");
    // CPU time of all threads together; the parent's wall-clock limit comes first.
    if (!policy.manyJobs)
        limit(RLIMIT_CPU, cpuSeconds(policy.timeLimit), "RLIMIT_CPU");
}

} // namespace

bool CompilerSandbox::available() { return !pretendNoLandlock() && landlockAbi() >= 1; }

std::string CompilerSandbox::unavailableReason()
{
    if (available())
        return {};
    return "this system's kernel has no Landlock (Linux 5.13 or later, with Landlock enabled), so the "
           "compiler cannot be kept from reading other files";
}

void CompilerSandbox::enter(const SandboxPolicy& policy)
{
    // A worker whose parent is gone has nobody to answer.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        refuse("no_new_privs");
    limitResources(policy);
    if (policy.confined) {
        if (pretendNoLandlock()) {
            errno = ENOSYS;
            refuse("Landlock");
        }
        requireSingleThread();
        confineFileSystem(policy.readable, policy.writable);
    }
    filterSystemCalls();
}

void CompilerSandbox::limitCpuTimeOfNextJob(std::chrono::milliseconds timeLimit)
{
    rusage used{};
    getrusage(RUSAGE_SELF, &used);
    const rlim_t spent = rlim_t(used.ru_utime.tv_sec + used.ru_stime.tv_sec) + 1;
    rlimit now{};
    getrlimit(RLIMIT_CPU, &now);
    const rlimit want{std::min(spent + cpuSeconds(timeLimit), now.rlim_max), now.rlim_max};
    if (setrlimit(RLIMIT_CPU, &want) != 0)
        refuse("setrlimit RLIMIT_CPU");
}

#else // not Linux

bool CompilerSandbox::available() { return false; }

std::string CompilerSandbox::unavailableReason()
{
    // Landlock and seccomp are Linux's; elsewhere NVRTC runs in the process, unconfined.
    return "the compiler cannot be kept from reading your other files on this system (its sandbox exists on "
           "Linux only)";
}

void CompilerSandbox::enter(const SandboxPolicy& policy)
{
    if (policy.confined)
        throw Error(ErrorCategory::Untrusted, unavailableReason());
}

void CompilerSandbox::limitCpuTimeOfNextJob(std::chrono::milliseconds) { }

#endif

std::vector<fs::path> CompilerSandbox::compilerFolders()
{
    std::vector<fs::path> folders = Compiler::installedIncludeDirs();
    std::error_code ec;
    const fs::path nvrtc = fs::canonical(NvrtcLibrary::instance().path(), ec);
    if (!ec)
        folders.push_back(nvrtc.parent_path()); // its builtins library lies beside it
    return folders;
}

} // namespace kw
