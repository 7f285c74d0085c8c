#pragma once
#include "compile/KernelSignature.hpp"
#include "data/Direction.hpp"
#include "data/HostBuffer.hpp"
#include "launch/CheckTool.hpp"
#include "launch/Dim3.hpp"
#include "launch/KernelProfile.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw {

// What a backend executes: the compiled kernel and where its name lives in the module.
struct KernelImage {
    std::string name;        // as the user wrote it: "scale<float,128>"
    std::string loweredName; // mangled .entry name
    std::string ptx;
    std::vector<char> cubin; // may be empty: load the PTX
    PtxEntry entry;          // the .entry's parameters
};

struct BufferArg {
    std::string name;
    Direction direction = Direction::InOut;
    HostBuffer data;    // initial data in, state after one launch out
    std::string global; // non-empty: the module's __constant__/__device__ variable this fills
};

// One kernel argument, in parameter order.
struct LaunchArg {
    bool isBuffer = false;
    std::size_t buffer = 0;       // index into the buffers when isBuffer
    std::size_t offsetBytes = 0;  // the pointer passed is the buffer's start plus this
    std::vector<std::byte> bytes; // scalar bytes when !isBuffer
};

// Whether the L2 cache is emptied before each timed run (as Nsight Compute does by
// default): `Auto` flushes unless the first warm-up (or, without warm-up, the first
// launch) took under kAutoL2FlushBelowMs.
enum class L2Flush { Auto, On, Off };
const char* toString(L2Flush flush);
std::optional<L2Flush> l2FlushFromString(const std::string& text);
inline constexpr double kAutoL2FlushBelowMs = 0.010;

struct LaunchConfig {
    Dim3 grid, block;
    std::uint32_t sharedBytes = 0;
    int warmup = 1;
    int repeats = 10;
    L2Flush l2Flush = L2Flush::Auto;
    std::size_t printfBufferBytes = 1 << 20;
    double timeLimitSeconds = 10.0;
    ProfileRequest profile; // count per line (the simulator)
    CheckTool check = CheckTool::None;
};

enum class FaultKind {
    None,
    IllegalAddress,
    MisalignedAddress,
    Trap,
    Assert,
    LaunchFailure,
    Timeout,
    OutOfBounds,      // sim: access outside any allocation
    DivergentBarrier, // sim: a barrier not reached by all threads of a block
    Unsupported,      // sim: an instruction it does not implement
    Other,
};
const char* toString(FaultKind kind);

struct Fault {
    FaultKind kind = FaultKind::None;
    std::string message;               // one line, names the kind and what is known
    std::optional<Dim3> block, thread; // where, when the backend knows
    std::string file;                  // source location from -lineinfo, when known
    int line = 0;
};

// How the repeats were timed and under what conditions (docs/benchmarks.md).
struct TimingDetail {
    std::string method;     // "cupti profiler", "cupti", "cuda events" or "host clock" (the simulator); "" before a run
    std::string methodNote; // why a source above the method was not used (the profiler, CUPTI), else ""
    int warmupRuns = 0;     // warm-up launches that ran
    bool warmupSettled = false;
    bool l2Flushed = false;                                           // the L2 cache was flushed before each timed run
    double ciLowMs = 0, ciHighMs = 0, ciLevel = 0;                    // the median's order-statistic interval
    int smClockBeforeMhz = 0, smClockAfterMhz = 0, smClockMaxMhz = 0; // 0: unknown
};

struct KernelTimings {
    std::vector<double> repeatMs; // kernel time per timed repeat
    double minMs = 0, medianMs = 0, meanMs = 0;
    double h2dMs = 0, d2hMs = 0, moduleLoadMs = 0, firstLaunchMs = 0;
    TimingDetail detail;
};

struct LaunchReport {
    bool ok = true;
    std::optional<Fault> fault;
    std::string printfOutput; // raw device printf text (tags still embedded)
    bool printfMaybeTruncated = false;
    KernelTimings timings;
    std::vector<std::string> warnings;
    std::optional<KernelProfile> profile; // when asked for and the backend counts
    std::vector<CheckFinding> findings;   // what the requested check found
};

// Device limits the launch is validated against.
struct DeviceLimits {
    int maxThreadsPerBlock = 1024;
    Dim3 maxBlock{1024, 1024, 64};
    Dim3 maxGrid{2147483647u, 65535, 65535};
    std::size_t sharedPerBlock = 48 * 1024;
    std::size_t sharedPerBlockOptin = 48 * 1024;
    int warpSize = 32;
    int maxRegistersPerBlock = 65536;
    int multiprocessors = 1;
    int maxThreadsPerMultiprocessor = 2048;
};

struct DeviceInfo {
    std::string id;   // "cuda:0" or "sim"
    std::string name; // "NVIDIA H200" or "CPU simulator"
    int ccMajor = 0, ccMinor = 0;
    std::size_t totalMemory = 0;
    double memoryBandwidthGBs = 0; // theoretical peak, when known
    DeviceLimits limits;
};

} // namespace kw
