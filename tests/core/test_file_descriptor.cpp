// The raw descriptor calls of util/FileDescriptor: pipes, duplicates that a re-exec
// does not inherit, terminal detection and stdio streams on a descriptor.
#include "util/FileDescriptor.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#ifndef _WIN32
#include <fcntl.h>
#endif

namespace fd = kw::fd;

namespace {

std::string readAll(int readFd)
{
    std::string text;
    char chunk[256];
    for (long n; (n = fd::read(readFd, chunk, sizeof chunk)) > 0;)
        text.append(chunk, std::size_t(n));
    return text;
}

} // namespace

TEST(FileDescriptor, APipeCarriesWhatIsWritten)
{
    int p[2];
    ASSERT_EQ(fd::makePipe(p), 0);
    EXPECT_EQ(fd::write(p[1], "abc", 3), 3);
    fd::close(p[1]);
    EXPECT_EQ(readAll(p[0]), "abc");
    fd::close(p[0]);
}

TEST(FileDescriptor, ADuplicateIsAboveTheStandardStreamsAndNotInherited)
{
    int p[2];
    ASSERT_EQ(fd::makePipe(p), 0);
    const int d = fd::duplicate(p[1]);
    ASSERT_GE(d, 3);
    EXPECT_NE(d, p[1]);
#ifndef _WIN32
    EXPECT_TRUE(fcntl(d, F_GETFD) & FD_CLOEXEC);
#endif
    fd::close(p[1]);
    EXPECT_EQ(fd::write(d, "x", 1), 1);
    fd::close(d);
    EXPECT_EQ(readAll(p[0]), "x");
    fd::close(p[0]);
}

TEST(FileDescriptor, APipeIsNoTerminal)
{
    int p[2];
    ASSERT_EQ(fd::makePipe(p), 0);
    EXPECT_FALSE(fd::isTerminal(p[0]));
    EXPECT_FALSE(fd::isTerminal(p[1]));
    fd::close(p[0]);
    fd::close(p[1]);
}

TEST(FileDescriptor, AStreamOnADescriptorWritesThroughItAndClosesIt)
{
    int p[2];
    ASSERT_EQ(fd::makePipe(p), 0);
    std::FILE* out = fd::openStream(fd::duplicate(p[1]), "w");
    ASSERT_NE(out, nullptr);
    fd::close(p[1]);
    std::fputs("through stdio\n", out);
    std::fclose(out); // the last writer: the reader sees the end
    EXPECT_EQ(readAll(p[0]), "through stdio\n");
    fd::close(p[0]);
}

#ifndef _WIN32 // the Windows runtime's invalid-parameter handler ends the process instead
TEST(FileDescriptor, NoStreamOnAClosedDescriptor)
{
    int p[2];
    ASSERT_EQ(fd::makePipe(p), 0);
    fd::close(p[0]);
    fd::close(p[1]);
    EXPECT_EQ(fd::openStream(p[1], "w"), nullptr);
}
#endif
