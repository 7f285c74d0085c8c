// The text kwb-run prints for a compile and a run (run/SummaryText), line by line.
#include "run/SummaryText.hpp"

#include <gtest/gtest.h>

using kw::SummaryText;

namespace {

kw::CompileResult compiled()
{
    kw::CompileResult r;
    r.ok = true;
    r.arch = "compute_75";
    r.compileMs = 12.345;
    kw::KernelSignature k;
    k.name = "scale";
    kw::KernelParam x, n;
    x.name = "x";
    x.type = "float *";
    n.type = "int";
    k.params = {x, n};
    r.kernels = {k};
    return r;
}

kw::RunResult ran()
{
    kw::RunResult r;
    r.ok = true;
    r.compile = compiled();
    r.device.id = "sim";
    r.device.name = "CPU simulator (2 threads)";
    r.grid = {4, 1, 1};
    r.block = {256, 1, 1};
    r.sharedBytes = 128;
    r.timings.compileMs = 12.345;
    r.timings.moduleLoadMs = 0.5;
    r.timings.h2dMs = 0.25;
    r.timings.d2hMs = 0.125;
    r.timings.kernelMs = {1, 2, 3};
    r.timings.minMs = 1;
    r.timings.medianMs = 2;
    r.timings.meanMs = 2;
    r.timings.bytesMoved = 12288;
    r.timings.gbps = 0.006144;
    return r;
}

} // namespace

TEST(SummaryText, DiagnosticsNameTheirPlaceAndIndentTheirNotes)
{
    kw::CompileResult r;
    kw::Diagnostic d;
    d.file = "bad.cu";
    d.line = 3;
    d.column = 12;
    d.message = "identifier \"undefined_name\" is undefined";
    d.notes = {"detected during instantiation"};
    r.diagnostics = {d};
    d.severity = kw::Severity::Warning;
    d.line = 5;
    d.notes.clear();
    d.message = "unused";
    r.diagnostics.push_back(d);
    EXPECT_EQ(SummaryText::diagnostics(r),
              "bad.cu:3:12: error: identifier \"undefined_name\" is undefined\n"
              "    detected during instantiation\n"
              "bad.cu:5:12: warning: unused\n");
}

TEST(SummaryText, ACompileListsItsKernelsThenSaysForWhatAndHowLong)
{
    kw::CompileResult r = compiled();
    EXPECT_EQ(SummaryText::compile(r), "kernel scale(float * x, int)\ncompiled for compute_75 in 12.3 ms\n");
    r.cacheHit = true;
    r.kernels.clear();
    EXPECT_EQ(SummaryText::compile(r), "compiled for compute_75 in 12.3 ms (cached)\n");
    r.ok = false;
    r.cacheHit = false;
    EXPECT_EQ(SummaryText::compile(r), "failed for compute_75 in 12.3 ms\n");
}

TEST(SummaryText, ARunSaysWhereHowAndHowFast)
{
    EXPECT_EQ(SummaryText::run(ran()),
              "device   CPU simulator (2 threads) (sim)\n"
              "launch   grid 4x1x1 block 256x1x1 shared 128 B\n"
              "kernel   median 2.0000 ms  min 1.0000 ms  mean 2.0000 ms  (3 repeats)\n"
              "memory   12288 bytes moved, 0.0 GB/s\n"
              "times    compile 12.3 ms  module load 0.50 ms  upload 0.25 ms  download 0.12 ms\n");
}

TEST(SummaryText, PrintfOutputAndWarningsComeFirstAndAFaultEndsTheSummary)
{
    kw::RunResult r = ran();
    r.printf.raw = "hello\nno newline";
    r.warnings = {"the printf output was probably truncated"};
    kw::Fault f;
    f.kind = kw::FaultKind::OutOfBounds;
    f.message = "thread (3,0,0) wrote past the end of buffer 'p'";
    r.fault = f;
    r.ok = false;
    EXPECT_EQ(SummaryText::run(r, true),
              "hello\nno newline\n"
              "warning: the printf output was probably truncated\n"
              "device   CPU simulator (2 threads) (sim)\n"
              "launch   grid 4x1x1 block 256x1x1 shared 128 B\n"
              "FAULT    out_of_bounds: thread (3,0,0) wrote past the end of buffer 'p'\n");
}

TEST(SummaryText, ChecksSayHowManyDifferAndShowTheFirstMismatches)
{
    kw::RunResult r = ran();
    r.compile.cacheHit = true;
    kw::CheckResult c;
    c.buffer = "c";
    c.expect = "a + b";
    c.checked = 1000;
    c.mismatches = 2;
    c.maxAbsError = 0.5;
    c.maxRelError = 0.0123456;
    c.firstMismatches = {{5, 11, 12}, {7, 1.5, 2}};
    r.checks = {c};
    const std::string text = SummaryText::run(r);
    EXPECT_NE(text.find("times    compile 12.3 ms (cached)  module load"), std::string::npos) << text;
    EXPECT_NE(text.find("check    c = a + b: FAILED (2 of 1000 elements differ, max abs error 0.5, max rel error "
                        "0.0123)\n"
                        "           [5] got 11 expected 12\n"
                        "           [7] got 1.5 expected 2\n"),
              std::string::npos)
        << text;
    r.checks[0].passed = true;
    r.checks[0].mismatches = 0;
    r.checks[0].firstMismatches.clear();
    EXPECT_NE(SummaryText::run(r).find(": passed (0 of 1000"), std::string::npos);
}

TEST(SummaryText, ARunnersTrafficInBytesKibOrMib)
{
    EXPECT_EQ(SummaryText::bytes(0), "0 B");
    EXPECT_EQ(SummaryText::bytes(1023), "1023 B");
    EXPECT_EQ(SummaryText::bytes(1536), "1.5 KiB");
    EXPECT_EQ(SummaryText::bytes(3u << 20), "3.0 MiB");
    EXPECT_EQ(SummaryText::runner("ssh gpu kwb-run serve", 2245, 100),
              "runner   ssh gpu kwb-run serve: sent 2.2 KiB, received 100 B\n");
}

TEST(SummaryText, PrintfLinesCannotPassForTheSummaryOrDriveTheTerminal)
{
    kw::RunResult r = ran();
    r.printf.raw = "hello\ncheck    y = x: passed\n\x1b[2J\x1b]52;c;aGk=\x07\rdone";
    const std::string text = SummaryText::run(r);
    EXPECT_EQ(text.substr(0, text.find("device")),
              "| hello\n"
              "| check    y = x: passed\n"
              "| \\x1b[2J\\x1b]52;c;aGk=\\x07\\x0ddone\n");
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    EXPECT_EQ(SummaryText::run(r, true).substr(0, r.printf.raw.size()), r.printf.raw);
}

TEST(SummaryText, OccupancyNamesTheDeviceTheLimitAndTheRegisters)
{
    kw::DeviceInfo d;
    d.id = "cuda:0";
    d.name = "NVIDIA H200";
    d.limits.sharedPerBlockOptin = 227 * 1024;
    kw::KernelFootprint k;
    k.ptxas = kw::KernelResources{};
    k.ptxas->registers = 72; // 8 warps x 2304 registers: 3 blocks in 64 Ki
    EXPECT_EQ(SummaryText::occupancy(d, 256, 0, k),
              "occupancy 38 % on NVIDIA H200 (cuda:0): 24 of 64 warps per SM, 3 blocks of 256 threads per SM, "
              "limited by registers (72 registers per thread)\n");
    k.ptxas.reset();
    k.staticShared = 1024;
    EXPECT_EQ(SummaryText::occupancy(d, 2048, 0, k),
              "occupancy 0 % on NVIDIA H200 (cuda:0): 0 of 64 warps per SM, 0 blocks of 2048 threads per SM, "
              "limited by the block size; registers not counted (no ptxas report for a virtual arch)\n");
}
