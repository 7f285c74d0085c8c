#pragma once
// The walls around NVRTC in the compile worker (`kwb-run compile-worker`). A reading of
// the preprocessor's rules in front of the compiler (IncludeGate) can always miss a
// trick, so for an untrusted source the wall is that the compiler cannot open the file:
// Landlock lets the worker read only the installed headers and NVRTC's own folder, a
// seccomp filter takes away sockets, new processes and debugging calls, and resource
// limits bound memory, CPU time and file size. Linux only; elsewhere `available()` is
// false and untrusted sources are refused before a worker starts.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace kw {

struct SandboxPolicy {
    // Confined: reads only beneath `readable`, writes nowhere. Not confined (a trusted
    // source): the file system is open, the other walls stand.
    bool confined = true;
    std::vector<std::filesystem::path> readable;
    // Confined and yet written: the folder of NVRTC's precompiled headers.
    std::vector<std::filesystem::path> writable;
    std::chrono::milliseconds timeLimit{120000}; // bounds CPU time as well
    // A worker that compiles job after job: its CPU time is bounded per job
    // (limitCpuTimeOfNextJob), not once.
    bool manyJobs = false;
};

class CompilerSandbox {
public:
    // Whether this system can confine the compiler (Linux with Landlock, kernel 5.13 or
    // later). KWB_TEST_NO_LANDLOCK=1 makes it answer no, so the refusal can be tested.
    static bool available();
    // Why not, in words for the user ("" when available()).
    static std::string unavailableReason();

    // Puts the calling process behind the walls, for good. Throws kw::Error(Untrusted)
    // when a wall cannot be raised; the worker then compiles nothing.
    static void enter(const SandboxPolicy& policy);

    // In a worker of many jobs: the next job may use `timeLimit` of CPU time (all its
    // threads together) on top of what the worker has used so far.
    static void limitCpuTimeOfNextJob(std::chrono::milliseconds timeLimit);

    // The folders a confined compile may read: the installed headers and NVRTC's folder.
    static std::vector<std::filesystem::path> compilerFolders();
};

} // namespace kw
