#include "serve/RunnerSupervisor.hpp"

#ifdef _WIN32

#include "serve/ProcessRestart.hpp"
#include "util/Error.hpp"

#include <windows.h>

#include <cstdint>

namespace kw {

namespace {

std::string lastError(const char* what)
{
    return std::string(what) + " failed (Windows error " + std::to_string(GetLastError()) + ")";
}

// An anonymous file the children inherit; removed when its last handle closes.
HANDLE handoverFile()
{
    wchar_t dir[MAX_PATH + 1], path[MAX_PATH + 1];
    if (!GetTempPathW(MAX_PATH + 1, dir) || !GetTempFileNameW(dir, L"kwb", 0, path))
        throw Error(ErrorCategory::Io, lastError("creating the runner's handover file"));
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    HANDLE h = CreateFileW(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           &inherit, CREATE_ALWAYS, FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        DeleteFileW(path);
        throw Error(ErrorCategory::Io, lastError("opening the runner's handover file"));
    }
    return h;
}

void makeInheritable(DWORD which)
{
    HANDLE h = GetStdHandle(which);
    if (h && h != INVALID_HANDLE_VALUE)
        SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
}

// Kills every runner when the supervisor's last handle to it goes, however it ends.
HANDLE killOnCloseJob()
{
    HANDLE job = CreateJobObjectW(nullptr, nullptr);
    if (!job)
        return nullptr;
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits);
    return job;
}

std::wstring handleArg(HANDLE h) { return std::to_wstring(reinterpret_cast<std::uintptr_t>(h)); }

} // namespace

RunnerSupervisor::RunnerSupervisor(std::filesystem::path runner, std::intptr_t pending)
    : runner_(std::move(runner))
    , pending_(pending)
{
}

int RunnerSupervisor::run()
{
    makeInheritable(STD_INPUT_HANDLE);
    makeInheritable(STD_OUTPUT_HANDLE);
    makeInheritable(STD_ERROR_HANDLE);
    HANDLE job = killOnCloseJob();
    HANDLE pending = pending_ >= 0 ? reinterpret_cast<HANDLE>(pending_) : nullptr;
    for (;;) {
        HANDLE handover = handoverFile();
        std::wstring cmd = L"\"" + runner_.wstring() + L"\" serve --handover " + handleArg(handover);
        if (pending)
            cmd += L" --pending-fd " + handleArg(pending);
        STARTUPINFOW si{};
        si.cb = sizeof si;
        si.dwFlags = STARTF_USESTDHANDLES;
        si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
        si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
        si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
        PROCESS_INFORMATION pi{};
        const BOOL started = CreateProcessW(runner_.wstring().c_str(), cmd.data(), nullptr, nullptr, TRUE,
                                            CREATE_SUSPENDED, nullptr, nullptr, &si, &pi);
        if (pending)
            CloseHandle(pending); // the runner has its own handle now
        pending = nullptr;
        if (!started) {
            CloseHandle(handover);
            throw Error(ErrorCategory::Io, lastError(("starting " + runner_.string()).c_str()));
        }
        if (job)
            AssignProcessToJobObject(job, pi.hProcess);
        ResumeThread(pi.hThread);
        CloseHandle(pi.hThread);
        WaitForSingleObject(pi.hProcess, INFINITE);
        DWORD code = 1;
        GetExitCodeProcess(pi.hProcess, &code);
        CloseHandle(pi.hProcess);
        if (code != DWORD(ProcessRestart::kExitRestart)) {
            CloseHandle(handover);
            if (job)
                CloseHandle(job);
            return int(code);
        }
        // What the runner wrote is the next runner's pending input.
        SetFilePointer(handover, 0, nullptr, FILE_BEGIN);
        pending = handover;
    }
}

} // namespace kw

#endif
