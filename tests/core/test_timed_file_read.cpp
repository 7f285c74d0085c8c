// readFileWithin: what the window reads to show a document (description images) is a
// regular file of bounded size, read within a time limit; nothing else is read.
#include "support/TempDir.hpp"
#include "util/TimedFileRead.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#ifndef _WIN32
#include <sys/stat.h>
#endif

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

TEST(TimedFileRead, ARegularFileIsReadWhole)
{
    const fs::path p = kw::test::freshDir("kw_timed_read", "whole") / "a.png";
    std::ofstream(p, std::ios::binary) << std::string("\x89PNG\0rest", 9);
    const auto r = kw::readFileWithin(p, 1024, 5s);
    ASSERT_EQ(r.status, kw::TimedReadStatus::Read);
    EXPECT_EQ(r.bytes, std::string("\x89PNG\0rest", 9));
}

TEST(TimedFileRead, AFileOverTheCapIsNotRead)
{
    const fs::path p = kw::test::freshDir("kw_timed_read", "large") / "big.png";
    std::ofstream(p) << std::string(2048, 'x');
    EXPECT_EQ(kw::readFileWithin(p, 2047, 5s).status, kw::TimedReadStatus::TooLarge);
    EXPECT_EQ(kw::readFileWithin(p, 2048, 5s).status, kw::TimedReadStatus::Read);
}

TEST(TimedFileRead, AMissingFileIsUnreadable)
{
    EXPECT_EQ(kw::readFileWithin(kw::test::freshDir("kw_timed_read", "missing") / "none.png", 1024, 5s).status,
              kw::TimedReadStatus::Unreadable);
}

#ifndef _WIN32
TEST(TimedFileRead, AFifoADeviceAndAFolderAreRefusedAtOnce)
{
    const fs::path dir = kw::test::freshDir("kw_timed_read", "special");
    ASSERT_EQ(::mkfifo((dir / "pipe.png").c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(kw::readFileWithin(dir / "pipe.png", 1024, 30s).status, kw::TimedReadStatus::NotRegular);
    EXPECT_EQ(kw::readFileWithin("/dev/zero", 1024, 30s).status, kw::TimedReadStatus::NotRegular);
    EXPECT_EQ(kw::readFileWithin(dir, 1024, 30s).status, kw::TimedReadStatus::NotRegular);
    // Refused, not waited out: well inside any of the limits.
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
}
#endif

} // namespace
