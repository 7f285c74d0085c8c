// kwb-run export: writes the folder it names (or NAME-TARGET beside the document), lists
// what it wrote, refuses an unknown target and, for a document from elsewhere, what the
// document may not ask for.
#include "serve/ExportCommand.hpp"
#include "support/CommandOutput.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

TEST(ExportCommand, WritesTheFolderAndSaysWhatItWrote)
{
    const fs::path dir = kw::test::freshDir("kw_export_cmd", "written");
    kw::ExportCommandOptions o;
    o.file = std::string(KW_SAMPLES_DIR) + "/saxpy.kwb";
    o.target = "cpp";
    o.outDir = (dir / "saxpy").string();
    const auto r = kw::test::executeCommand<kw::ExportCommand>(o);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("wrote " + (dir / "saxpy" / "run.cpp").string()), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("README.md says how to run it"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("kwb_headers/"), std::string::npos) << "the built-in headers are not listed one by one";
    EXPECT_TRUE(fs::exists(dir / "saxpy" / "data" / "xs.npy")) << "saxpy's sin(i) input is baked";
}

TEST(ExportCommand, WithoutOutTheFolderLiesBesideTheDocument)
{
    const fs::path dir = kw::test::freshDir("kw_export_cmd", "beside");
    fs::copy_file(std::string(KW_SAMPLES_DIR) + "/add_vectors_small.kwb", dir / "small.kwb");
    kw::ExportCommandOptions o;
    o.file = (dir / "small.kwb").string();
    o.target = "cupy";
    const auto r = kw::test::executeCommand<kw::ExportCommand>(o);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "small-cupy" / "run_cupy.py"));
}

TEST(ExportCommand, AnUnknownTargetIsBadUsage)
{
    kw::ExportCommandOptions o;
    o.file = std::string(KW_SAMPLES_DIR) + "/saxpy.kwb";
    o.target = "fortran";
    const auto r = kw::test::executeCommand<kw::ExportCommand>(o);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("\"fortran\" is not one of cupy, pycuda, cpp"), std::string::npos) << r.err;
}

TEST(ExportCommand, ADocumentFromElsewhereKeepsItsLimitsUnlessTrusted)
{
    const fs::path dir = kw::test::freshDir("kw_export_cmd", "untrusted");
    fs::create_directories(dir / "doc");
    std::ofstream(dir / "secret.bin") << "12345678";
    std::ofstream(dir / "doc" / "d.kwb") << R"({"format": "kernel-workbench", "version": 1,
      "source": "__global__ void k(float* p) {}", "kernel": "k",
      "buffers": [{"name": "p", "dtype": "f32", "count": 2, "init": {"kind": "file", "path": "../secret.bin"}}],
      "args": [{"buffer": "p"}], "launch": {"grid": 1, "block": 1}})";
    kw::ExportCommandOptions o;
    o.file = (dir / "doc" / "d.kwb").string();
    o.target = "cpp";
    o.outDir = (dir / "out").string();
    const auto refused = kw::test::executeCommand<kw::ExportCommand>(o);
    EXPECT_EQ(refused.code, 5) << refused.err;
    EXPECT_NE(refused.err.find("outside the document's folder"), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(dir / "out" / "run.cpp"));
    o.trust = true;
    const auto trusted = kw::test::executeCommand<kw::ExportCommand>(o);
    EXPECT_EQ(trusted.code, 0) << trusted.err;
    EXPECT_TRUE(fs::exists(dir / "out" / "data" / "p.npy")) << "the file's values are baked";
}
