#pragma once
// Runs a snippet of hand-written PTX in one block: every thread reads its 64-bit input
// in[tid] (address in %rd27) and stores whatever it wants at out[tid] (address in %rd28).
#include "sim/SimBackend.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kwtest {

inline std::string ptxModule(const std::string& body, const std::string& globals = "")
{
    return R"(
.version 9.0
.target sm_80
.address_size 64
)" + globals
        + R"(
.visible .entry t(.param .u64 p_out, .param .u64 p_in)
{
    .reg .pred %p<8>;
    .reg .b16 %h<8>;
    .reg .b32 %r<32>;
    .reg .f32 %f<16>;
    .reg .b64 %rd<32>;
    .reg .f64 %fd<8>;
    .loc 1 10 0
    ld.param.u64 %rd30, [p_out];
    ld.param.u64 %rd31, [p_in];
    mov.u32 %r31, %tid.x;
    mul.wide.u32 %rd29, %r31, 8;
    add.s64 %rd28, %rd30, %rd29;
    add.s64 %rd27, %rd31, %rd29;
    .loc 1 20 0
)" + body
        + R"(
    ret;
}
    .file 1 "snippet.cu"
)";
}

struct PtxRun {
    kw::LaunchReport report;
    std::vector<std::uint64_t> out;
};

inline PtxRun runPtx(const std::string& body, std::vector<std::uint64_t> in, unsigned threads = 32,
                     const std::string& globals = "", std::uint32_t dynShared = 0, double timeLimit = 5)
{
    in.resize(threads, 0);
    kw::KernelImage img;
    img.name = img.loweredName = "t";
    img.ptx = ptxModule(body, globals);
    std::vector<kw::BufferArg> bufs(2);
    bufs[0].name = "out";
    bufs[0].data.bytes().assign(threads * 8, std::byte{0});
    bufs[1].name = "in";
    bufs[1].data.bytes().resize(threads * 8);
    std::memcpy(bufs[1].data.bytes().data(), in.data(), threads * 8);
    std::vector<kw::LaunchArg> args(2);
    args[0].isBuffer = args[1].isBuffer = true;
    args[0].buffer = 0;
    args[1].buffer = 1;
    kw::LaunchConfig cfg;
    cfg.grid = {1};
    cfg.block = {threads};
    cfg.sharedBytes = dynShared;
    cfg.repeats = 0;
    cfg.warmup = 0;
    cfg.timeLimitSeconds = timeLimit;
    kw::SimBackend sim;
    PtxRun r;
    r.report = sim.launch(img, bufs, args, cfg);
    r.out.resize(threads);
    std::memcpy(r.out.data(), bufs[0].data.bytes().data(), threads * 8);
    return r;
}

// Runs body on one thread and returns what it stored at out[0].
inline std::uint64_t runOne(const std::string& body, std::uint64_t in = 0) { return runPtx(body, {in}, 1).out[0]; }

inline std::uint64_t f32bits(float f)
{
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
inline float asF32(std::uint64_t v)
{
    const auto b = std::uint32_t(v);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
inline std::uint64_t f64bits(double d)
{
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
}
inline double asF64(std::uint64_t v)
{
    double d;
    std::memcpy(&d, &v, 8);
    return d;
}

} // namespace kwtest
