// compute-sanitizer's XML reports and its log, as captured on a GPU machine
// (tests/data/sanitizer/README.md says how), read into findings.
#include "run/SanitizerLog.hpp"
#include "run/SanitizerXmlReader.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace kw;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(KW_TEST_DATA_DIR) / "sanitizer";

std::string readData(const std::string& name)
{
    std::ifstream in(kData / name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The capture ran in /tmp/w: its kernel.cu is the document's source here.
std::string userName(const std::string& path)
{
    const std::string folder = "/tmp/w/";
    return path.rfind(folder, 0) == 0 ? path.substr(folder.size()) : path;
}

SanitizerReport read(const std::string& name, CheckTool tool)
{
    return SanitizerXmlReader::readFile(kData / name, tool, userName);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

TEST(SanitizerXml, OutOfBoundsWriteAtItsLineThreadAndAddress)
{
    const SanitizerReport r = read("memcheck_oob.xml", CheckTool::Memcheck);
    EXPECT_TRUE(r.problem.empty()) << r.problem;
    EXPECT_EQ(r.records, 1u);
    ASSERT_EQ(r.findings.size(), 1u);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.tool, CheckTool::Memcheck);
    EXPECT_EQ(f.kind, "out of bounds write");
    EXPECT_EQ(f.file, "kernel.cu");
    EXPECT_EQ(f.line, 3);
    ASSERT_TRUE(f.thread && f.block);
    EXPECT_EQ(*f.thread, (Dim3{63, 0, 0}));
    EXPECT_EQ(*f.block, (Dim3{0, 0, 0}));
    ASSERT_TRUE(f.address);
    EXPECT_EQ(*f.address, 0x7f192aa00100ull);
    EXPECT_EQ(f.count, 1u);
    EXPECT_EQ(f.message,
              "Invalid __global__ write of size 4 bytes is out of bounds at kernel.cu:3 by thread (63,0,0) "
              "in block (0,0,0), address 0x7f192aa00100");
}

TEST(SanitizerXml, PathsAsTheToolWritesThemWithoutAMap)
{
    const SanitizerReport r = SanitizerXmlReader::readFile(kData / "memcheck_oob.xml", CheckTool::Memcheck);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].file, "/tmp/w/kernel.cu");
}

TEST(SanitizerXml, EveryThreadsMisalignedWriteFoldsIntoOneFinding)
{
    const SanitizerReport r = read("memcheck_misaligned.xml", CheckTool::Memcheck);
    EXPECT_EQ(r.records, 64u);
    ASSERT_EQ(r.findings.size(), 1u);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.kind, "misaligned write");
    EXPECT_EQ(f.line, 8);
    EXPECT_EQ(f.count, 64u);
    EXPECT_EQ(*f.thread, (Dim3{0, 0, 0})) << "the first record locates it";
    EXPECT_EQ(*f.address, 0x7efb3ca00001ull);
    EXPECT_TRUE(contains(f.message, "is misaligned")) << f.message;
}

TEST(SanitizerXml, SharedMemoryOutOfBoundsNamesTheSpace)
{
    const SanitizerReport r = read("memcheck_shared.xml", CheckTool::Memcheck);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, "out of bounds write (__shared__)");
    EXPECT_EQ(r.findings[0].line, 31);
    EXPECT_EQ(r.findings[0].count, 64u);
    EXPECT_EQ(*r.findings[0].address, 0x4280u);
    EXPECT_TRUE(contains(r.findings[0].message, "Invalid __shared__ write")) << r.findings[0].message;
}

TEST(SanitizerXml, CleanReportHasNoFindings)
{
    const SanitizerReport r = read("memcheck_clean.xml", CheckTool::Memcheck);
    EXPECT_TRUE(r.problem.empty()) << r.problem;
    EXPECT_EQ(r.records, 0u);
    EXPECT_TRUE(r.findings.empty());
}

TEST(SanitizerXml, RaceHazardsAndTheirAnalysisAreOneFindingWithBothAccesses)
{
    const SanitizerReport r = read("racecheck_race.xml", CheckTool::Racecheck);
    EXPECT_EQ(r.records, 257u);
    ASSERT_EQ(r.findings.size(), 1u);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.tool, CheckTool::Racecheck);
    EXPECT_EQ(f.kind, "shared-memory race");
    EXPECT_EQ(f.file, "kernel.cu");
    EXPECT_EQ(f.line, 14) << "the read that races with the write before it";
    EXPECT_EQ(f.otherFile, "kernel.cu");
    EXPECT_EQ(f.otherLine, 13) << "the write it races with";
    EXPECT_EQ(f.count, 256u);
    EXPECT_EQ(*f.block, (Dim3{0, 0, 0}));
    EXPECT_EQ(*f.thread, (Dim3{32, 0, 0}));
    EXPECT_EQ(*f.address, 0x47cu);
    EXPECT_EQ(f.message,
              "Potential RAW hazard at __shared__ 0x47c in block (0,0,0): write by thread (31,0,0) at "
              "kernel.cu:13, read by thread (32,0,0) at kernel.cu:14");
}

TEST(SanitizerXml, RaceHazardsCutByThePrintLimitStillLocateTheRace)
{
    const SanitizerReport r = read("racecheck_limited.xml", CheckTool::Racecheck);
    EXPECT_EQ(r.records, 3u);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].line, 14);
    EXPECT_EQ(r.findings[0].count, 3u);
}

TEST(SanitizerXml, RaceAnalysisAloneGivesTheLinesAndTheCount)
{
    const SanitizerReport r = SanitizerXmlReader::readFile(kData / "racecheck_analysis_only.xml", CheckTool::Racecheck);
    ASSERT_EQ(r.findings.size(), 1u);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.kind, "shared-memory race");
    EXPECT_EQ(f.file, "/tmp/x/k.cu");
    EXPECT_EQ(f.line, 15);
    EXPECT_EQ(f.otherFile, "/tmp/x/k.cu");
    EXPECT_EQ(f.otherLine, 14);
    EXPECT_EQ(f.count, 256u);
    EXPECT_FALSE(f.thread);
    EXPECT_EQ(f.message, "Race condition between a write at /tmp/x/k.cu:14 and a read at /tmp/x/k.cu:15");
}

TEST(SanitizerXml, UninitialisedDeviceHeapRead)
{
    const SanitizerReport r = read("initcheck_uninit.xml", CheckTool::Initcheck);
    ASSERT_EQ(r.findings.size(), 1u);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.tool, CheckTool::Initcheck);
    EXPECT_EQ(f.kind, "uninitialized read");
    EXPECT_EQ(f.line, 19);
    EXPECT_EQ(f.count, 64u);
    EXPECT_TRUE(f.address);
    EXPECT_TRUE(contains(f.message, "Uninitialized __global__ memory read of size 4 bytes at kernel.cu:19"))
        << f.message;
}

TEST(SanitizerXml, BarrierInADivergentBranch)
{
    const SanitizerReport r = read("synccheck_divergent.xml", CheckTool::Synccheck);
    ASSERT_EQ(r.findings.size(), 1u);
    const CheckFinding& f = r.findings[0];
    EXPECT_EQ(f.tool, CheckTool::Synccheck);
    EXPECT_EQ(f.kind, "divergent barrier");
    EXPECT_EQ(f.line, 25);
    EXPECT_EQ(f.count, 16u);
    EXPECT_EQ(*f.thread, (Dim3{0, 0, 0}));
    EXPECT_FALSE(f.address);
    EXPECT_EQ(f.message,
              "Barrier error: Divergent thread(s) in warp at kernel.cu:25 by thread (0,0,0) in block (0,0,0)");
}

TEST(SanitizerXml, ApiErrorsAndHostStacksOfTheDefaultOptions)
{
    const SanitizerReport r
        = SanitizerXmlReader::readFile(kData / "memcheck_oob_with_api_error.xml", CheckTool::Memcheck);
    ASSERT_EQ(r.findings.size(), 2u);
    EXPECT_EQ(r.findings[0].kind, "out of bounds write");
    EXPECT_EQ(r.findings[0].line, 4);
    EXPECT_EQ(r.findings[1].kind, "CUDA API error");
    EXPECT_TRUE(contains(r.findings[1].message, "cudaErrorLaunchFailure")) << r.findings[1].message;
    EXPECT_TRUE(contains(r.findings[1].message, "cudaDeviceSynchronize")) << r.findings[1].message;
}

TEST(SanitizerXml, UnknownRecordsKeepTheirOwnText)
{
    const std::string xml = R"(<?xml version="1.0" encoding="utf-8"?>
<ComputeSanitizerOutput>
  <record><kind>Leak</kind><level>Error</level><what><text>Leaked 256 bytes at 0x7f0000000000</text></what></record>
  <record><kind>Leak</kind><level>Error</level><what><text>Leaked 256 bytes at 0x7f0000000000</text></what></record>
  <record><kind>Imprecise</kind><who><threadIdx><x>5</x><y>0</y><z>0</z></threadIdx></who>
    <what><text>Warp Illegal Instruction</text></what><where><path>/job/kernel.cu</path><line>7</line></where></record>
  <record><kind>Future</kind><level>Warning</level><what><size>8</size><space>__local__</space></what></record>
  <record><what><text>no kind at all</text></what></record>
</ComputeSanitizerOutput>)";
    const SanitizerReport r = SanitizerXmlReader::parse(xml, CheckTool::Memcheck);
    EXPECT_EQ(r.records, 5u);
    ASSERT_EQ(r.findings.size(), 4u);
    EXPECT_EQ(r.findings[0].kind, "leak");
    EXPECT_EQ(r.findings[0].message, "Leaked 256 bytes at 0x7f0000000000");
    EXPECT_EQ(r.findings[0].count, 2u);
    EXPECT_EQ(r.findings[1].kind, "imprecise");
    EXPECT_EQ(r.findings[1].line, 7);
    EXPECT_EQ(*r.findings[1].thread, (Dim3{5, 0, 0}));
    EXPECT_EQ(r.findings[1].message, "Warp Illegal Instruction at /job/kernel.cu:7 by thread (5,0,0)");
    EXPECT_EQ(r.findings[2].kind, "future");
    EXPECT_EQ(r.findings[2].message, "Future Warning 8 __local__ (warning)") << "every text it holds";
    EXPECT_EQ(r.findings[3].kind, "compute-sanitizer report");
    EXPECT_EQ(r.findings[3].message, "no kind at all");
}

TEST(SanitizerXml, AReportCutShortKeepsItsCompleteRecordsAndSaysSo)
{
    const std::string full = readData("memcheck_misaligned.xml");
    const SanitizerReport r = SanitizerXmlReader::parse(full.substr(0, full.size() / 2), CheckTool::Memcheck);
    EXPECT_TRUE(contains(r.problem, "ends early")) << r.problem;
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_GE(r.findings[0].count, 20u);
    EXPECT_LT(r.findings[0].count, 64u);
}

TEST(SanitizerXml, NotAReport)
{
    EXPECT_EQ(SanitizerXmlReader::parse("", CheckTool::Memcheck).problem, "the report is empty");
    const SanitizerReport html = SanitizerXmlReader::parse("<html><body/></html>", CheckTool::Memcheck);
    EXPECT_EQ(html.problem, "the report has no <ComputeSanitizerOutput> element");
    const SanitizerReport junk = SanitizerXmlReader::parse("ERROR: Device not supported\n", CheckTool::Memcheck);
    EXPECT_FALSE(junk.problem.empty());
    EXPECT_TRUE(junk.findings.empty());
    EXPECT_THROW(SanitizerXmlReader::readFile(kData / "no_such_report.xml", CheckTool::Memcheck), Error);
}

TEST(SanitizerLog, SummaryCountsAndFirstMessage)
{
    const SanitizerLog oob = SanitizerLog::parse(readData("memcheck_oob.log"));
    EXPECT_EQ(oob.errors, 1u);
    EXPECT_EQ(oob.firstMessage, "Invalid __global__ write of size 4 bytes");
    const SanitizerLog clean = SanitizerLog::parse(readData("memcheck_clean.log"));
    EXPECT_EQ(clean.errors, 0u);
    EXPECT_EQ(clean.firstMessage, "");
    // Three hazards listed, 257 found (256 hazards and the analysis).
    EXPECT_EQ(SanitizerLog::parse(readData("racecheck_limited.log")).errors, 257u);
    EXPECT_EQ(SanitizerLog::parse(readData("synccheck_divergent.log")).errors, 16u);
    EXPECT_FALSE(SanitizerLog::parse("").errors);
    const SanitizerLog failed
        = SanitizerLog::parse("========= COMPUTE-SANITIZER\n========= Error: Device not supported\n");
    EXPECT_EQ(failed.firstMessage, "Error: Device not supported");
    EXPECT_FALSE(failed.errors);
}
