// PtxSourceName: the compiled source's `.file` directive names the document's source as
// the document names it; headers keep their paths, and nothing else in the PTX changes.
#include "compile/PtxSourceName.hpp"

#include <gtest/gtest.h>

#include <filesystem>

using kw::PtxSourceName;

TEST(PtxSourceName, TheSourcesFileDirectiveLosesTheCompilingFolder)
{
    const std::string ptx = ".version 8.5\n"
                            "\t.file\t1 \"/run/worker/trusted/scan.cu\"\n"
                            "\t.file\t2 \"/home/me/doc/include/util.cuh\"\n"
                            "\tld.param.u64 %rd1, [k_param_0]; // /run/worker/trusted/scan.cu\n";
    const std::string out = PtxSourceName::restore(ptx, "/run/worker/trusted/scan.cu", "scan.cu");
    EXPECT_EQ(out,
              ".version 8.5\n"
              "\t.file\t1 \"scan.cu\"\n"
              "\t.file\t2 \"/home/me/doc/include/util.cuh\"\n"
              "\tld.param.u64 %rd1, [k_param_0]; // /run/worker/trusted/scan.cu\n");
}

TEST(PtxSourceName, AFileNamedAsTheSourceElsewhereIsLeftAlone)
{
    const std::string ptx = "\t.file\t1 \"/other/scan.cu\"\n\t.file\t2 \"/w/scan.cu.h\"\n";
    EXPECT_EQ(PtxSourceName::restore(ptx, "/w/scan.cu", "scan.cu"), ptx);
    EXPECT_EQ(PtxSourceName::restore(ptx, "scan.cu", "scan.cu"), ptx) << "already the name: nothing to do";
}

TEST(PtxSourceName, TheCompiledPathIsThisProcesssFolderJoinedToTheName)
{
    EXPECT_EQ(PtxSourceName::compiledPath("kernel.cu"),
              (std::filesystem::current_path() / "kernel.cu").generic_string());
    // An absolute name stays as it is (on Windows "/abs/k.cu" is relative to the drive).
#ifdef _WIN32
    EXPECT_EQ(PtxSourceName::compiledPath("C:/abs/k.cu"), "C:/abs/k.cu");
#else
    EXPECT_EQ(PtxSourceName::compiledPath("/abs/k.cu"), "/abs/k.cu");
#endif
}
