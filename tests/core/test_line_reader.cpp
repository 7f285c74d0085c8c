// LineReader: lines in order, a capped line skipped to its end, raw bytes after a line.
#include "serve/LineReader.hpp"
#include "util/FileDescriptor.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>

namespace {

// A pipe fed from a thread, as stdin is fed by the client.
struct Pipe {
    explicit Pipe(std::string data)
    {
        if (kw::fd::makePipe(fds) != 0)
            throw std::runtime_error("pipe");
        feeder = std::thread([this, data = std::move(data)] {
            std::size_t done = 0;
            while (done < data.size()) {
                const long n = kw::fd::write(fds[1], data.data() + done, data.size() - done);
                if (n <= 0)
                    break;
                done += std::size_t(n);
            }
            kw::fd::close(fds[1]);
        });
    }
    ~Pipe()
    {
        feeder.join();
        kw::fd::close(fds[0]);
    }
    int fds[2];
    std::thread feeder;
};

using Status = kw::LineReader::Status;

TEST(LineReader, ReturnsLinesWithoutTheirEndsAndALastLineWithoutNewline)
{
    Pipe p("first\nsecond\r\n\nlast");
    kw::LineReader r(p.fds[0], 1024);
    std::string line;
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "first");
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "second");
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "");
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "last");
    EXPECT_EQ(r.readLine(line), Status::End);
}

TEST(LineReader, SkipsALineOverTheCapAndGoesOnWithTheNext)
{
    Pipe p(std::string(3 << 20, 'x') + "\nnext\n");
    kw::LineReader r(p.fds[0], 1 << 20);
    std::string line;
    EXPECT_EQ(r.readLine(line), Status::TooLong);
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "next");
    EXPECT_EQ(r.readLine(line), Status::End);
}

TEST(LineReader, ReadsRawBytesAfterALineAndReportsAShortFrame)
{
    Pipe p(std::string("head\n") + std::string("ab\ncd", 5) + "tail\nxy");
    kw::LineReader r(p.fds[0], 64);
    std::string line, bytes;
    ASSERT_EQ(r.readLine(line), Status::Line);
    ASSERT_TRUE(r.readBytes(5, bytes));
    EXPECT_EQ(bytes, "ab\ncd");
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "tail");
    EXPECT_FALSE(r.readBytes(10, bytes));
    EXPECT_EQ(bytes, "xy");
}

TEST(LineReader, HandsOverPendingBytesFirst)
{
    Pipe p("world\n");
    kw::LineReader r(p.fds[0], 64, "hello\npartial ");
    std::string line;
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "hello");
    EXPECT_EQ(r.unread(), "partial ");
    ASSERT_EQ(r.readLine(line), Status::Line);
    EXPECT_EQ(line, "partial world");
}

} // namespace
