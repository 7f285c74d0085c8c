// RunnerProcess on Windows: the command line goes to `cmd.exe /d /s /c "..."` with
// anonymous pipes on its standard handles, in a job object, so that kill() ends cmd.exe
// and everything it started (ssh, kwb-run and its own runner) at once.
#ifdef _WIN32

#include "serve/RunnerProcess.hpp"

#include "util/Error.hpp"

#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <fcntl.h>
#include <io.h>

#include <cstdint>
#include <cstdio>
#include <cwchar>
#include <vector>

namespace kw {

namespace {

std::string lastError(const std::string& what)
{
    return what + " (Windows error " + std::to_string(GetLastError()) + ")";
}

std::wstring wide(const std::string& utf8)
{
    if (utf8.empty())
        return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), nullptr, 0);
    std::wstring w(std::size_t(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, utf8.data(), int(utf8.size()), w.data(), n);
    return w;
}

// This process's environment with SSH_ASKPASS_REQUIRE=never, as on POSIX: an ssh that
// would ask for a password fails instead of waiting on a console nobody sees.
std::vector<wchar_t> childEnvironment()
{
    static const std::wstring kAskPass = L"SSH_ASKPASS_REQUIRE=";
    std::vector<wchar_t> block;
    if (wchar_t* env = GetEnvironmentStringsW()) {
        for (const wchar_t* p = env; *p; p += wcslen(p) + 1) {
            const std::wstring entry(p);
            if (_wcsnicmp(entry.c_str(), kAskPass.c_str(), kAskPass.size()) != 0)
                block.insert(block.end(), entry.c_str(), entry.c_str() + entry.size() + 1);
        }
        FreeEnvironmentStringsW(env);
    }
    const std::wstring never = kAskPass + L"never";
    block.insert(block.end(), never.c_str(), never.c_str() + never.size() + 1);
    block.push_back(L'\0');
    return block;
}

std::wstring commandInterpreter()
{
    wchar_t dir[MAX_PATH + 1];
    const UINT n = GetSystemDirectoryW(dir, MAX_PATH + 1);
    return (n > 0 && n <= MAX_PATH ? std::wstring(dir, n) : std::wstring(L"C:\\Windows\\System32")) + L"\\cmd.exe";
}

// A C runtime descriptor owning `h`, so that the callers' fd::read/fd::write serve.
int descriptorOf(HANDLE h, int flags)
{
    const int fd = _open_osfhandle(reinterpret_cast<std::intptr_t>(h), flags | _O_BINARY);
    if (fd < 0) {
        CloseHandle(h);
        throw Error(ErrorCategory::Io, "cannot open a descriptor on the runner's pipe");
    }
    return fd;
}

} // namespace

RunnerProcess::RunnerProcess(const std::string& commandLine)
    : command_(commandLine)
{
    // The child's ends are inheritable; ours are not, so no other child holds them open.
    SECURITY_ATTRIBUTES inheritable{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    HANDLE inRead = nullptr, inWrite = nullptr, outRead = nullptr, outWrite = nullptr, errRead = nullptr,
           errWrite = nullptr;
    auto closeAll = [&] {
        for (HANDLE h : {inRead, inWrite, outRead, outWrite, errRead, errWrite})
            if (h)
                CloseHandle(h);
    };
    if (!CreatePipe(&inRead, &inWrite, &inheritable, 0) || !CreatePipe(&outRead, &outWrite, &inheritable, 0)
        || !CreatePipe(&errRead, &errWrite, &inheritable, 0)) {
        const std::string why = lastError("cannot create pipes for the runner");
        closeAll();
        throw Error(ErrorCategory::Io, why);
    }
    for (HANDLE ours : {inWrite, outRead, errRead})
        SetHandleInformation(ours, HANDLE_FLAG_INHERIT, 0);

    // Only the three pipe ends are inherited, whatever else is inheritable right now
    // (another thread may be starting a child of its own).
    HANDLE inherited[3] = {inRead, outWrite, errWrite};
    SIZE_T listBytes = 0;
    InitializeProcThreadAttributeList(nullptr, 1, 0, &listBytes);
    std::vector<char> listMemory(listBytes);
    auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(listMemory.data());
    const bool haveList = InitializeProcThreadAttributeList(list, 1, 0, &listBytes)
        && UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited, sizeof inherited, nullptr,
                                     nullptr);

    STARTUPINFOEXW si{};
    si.StartupInfo.cb = haveList ? sizeof si : sizeof si.StartupInfo;
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = inRead;
    si.StartupInfo.hStdOutput = outWrite;
    si.StartupInfo.hStdError = errWrite;
    si.lpAttributeList = haveList ? list : nullptr;

    // /d: no AutoRun commands from the registry; /s /c "...": the line between the
    // outer quotes is run as written, its own quotes included.
    const std::wstring interpreter = commandInterpreter();
    std::wstring line = L"\"" + interpreter + L"\" /d /s /c \"" + wide(commandLine) + L"\"";
    std::vector<wchar_t> environment = childEnvironment();
    PROCESS_INFORMATION pi{};
    const DWORD flags = CREATE_SUSPENDED | CREATE_NO_WINDOW | CREATE_UNICODE_ENVIRONMENT
        | (haveList ? EXTENDED_STARTUPINFO_PRESENT : 0);
    const BOOL started = CreateProcessW(interpreter.c_str(), line.data(), nullptr, nullptr, TRUE, flags,
                                        environment.data(), nullptr, &si.StartupInfo, &pi);
    const std::string startError = started ? std::string() : lastError("cannot start the runner: " + commandLine);
    if (haveList)
        DeleteProcThreadAttributeList(list);
    CloseHandle(inRead);
    CloseHandle(outWrite);
    CloseHandle(errWrite);
    if (!started) {
        CloseHandle(inWrite);
        CloseHandle(outRead);
        CloseHandle(errRead);
        throw Error(ErrorCategory::Io, startError);
    }

    // Everything cmd.exe starts joins its job; closing our handle to it ends them all.
    job_ = CreateJobObjectW(nullptr, nullptr);
    if (job_) {
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        SetInformationJobObject(job_, JobObjectExtendedLimitInformation, &limits, sizeof limits);
        if (!AssignProcessToJobObject(job_, pi.hProcess)) {
            CloseHandle(job_);
            job_ = nullptr; // kill() then ends cmd.exe alone
        }
    }
    ResumeThread(pi.hThread);
    CloseHandle(pi.hThread);
    process_ = pi.hProcess;
    pid_ = long(pi.dwProcessId);
    errPipe_ = errRead;
    toChild_ = descriptorOf(inWrite, _O_WRONLY);
    fromChild_ = descriptorOf(outRead, _O_RDONLY);
    errReader_ = std::thread([this] { drainStderr(); });
}

RunnerProcess::~RunnerProcess()
{
    if (!reaped_) {
        kill();
        wait();
    }
    for (int fd : {toChild_, fromChild_})
        if (fd >= 0)
            _close(fd);
    if (job_)
        CloseHandle(job_);
    if (process_)
        CloseHandle(process_);
}

void RunnerProcess::drainStderr()
{
    char chunk[4096];
    DWORD n = 0;
    while (ReadFile(errPipe_, chunk, sizeof chunk, &n, nullptr) && n > 0)
        keepStderr(chunk, n);
    CloseHandle(errPipe_);
}

void RunnerProcess::closeInput()
{
    if (toChild_ >= 0) {
        _close(toChild_);
        toChild_ = -1;
    }
}

void RunnerProcess::kill()
{
    // One that has ended already keeps its own exit status, as a zombie does on POSIX.
    if (!process_ || reaped_ || WaitForSingleObject(process_, 0) != WAIT_TIMEOUT)
        return;
    killed_ = true;
    if (!job_ || !TerminateJobObject(job_, 1))
        TerminateProcess(process_, 1);
}

std::string RunnerProcess::wait()
{
    if (!reaped_) {
        WaitForSingleObject(process_, INFINITE);
        DWORD code = 0;
        GetExitCodeProcess(process_, &code);
        reaped_ = true;
        if (killed_)
            exitText_ = "was stopped";
        else if (code >= 0xC0000000u) { // an NTSTATUS: the process ended on an exception
            char hex[16];
            std::snprintf(hex, sizeof hex, "%08lX", static_cast<unsigned long>(code));
            exitText_ = std::string("crashed (exception 0x") + hex + ")";
        } else
            exitText_ = "exited with status " + std::to_string(code);
        // Whatever cmd.exe started may still hold stderr open: end the job.
        if (job_)
            TerminateJobObject(job_, 1);
        if (errReader_.joinable())
            errReader_.join();
    }
    return exitText_;
}

} // namespace kw

#endif
