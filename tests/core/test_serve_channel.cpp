// Message framing of the serve protocol over a pipe.
#include "serve/MessageChannel.hpp"
#include "util/Error.hpp"
#include "util/FileDescriptor.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

using namespace kw;

namespace {

struct Pipe {
    int fd[2];
    Pipe() { EXPECT_EQ(kw::fd::makePipe(fd), 0); }
    ~Pipe()
    {
        kw::fd::close(fd[0]);
        if (fd[1] >= 0)
            kw::fd::close(fd[1]);
    }
    void closeWrite()
    {
        kw::fd::close(fd[1]);
        fd[1] = -1;
    }
};

} // namespace

TEST(MessageChannel, JsonLinesWithBinaryFramesRoundTrip)
{
    Pipe p;
    MessageChannel writer(-1, p.fd[1]);
    const std::string payload("\x00\x01\n\xff{\"x\":1}\n", 11);
    writer.write({{"v", 1}, {"id", 1}, {"event", "buffer"}}, payload.data(), payload.size());
    writer.write({{"v", 1}, {"id", 2}, {"text", "line\nbreak"}});
    p.closeWrite();

    MessageChannel reader(p.fd[0], -1);
    auto a = reader.read();
    ASSERT_TRUE(a);
    EXPECT_EQ(a->header["id"], 1);
    EXPECT_EQ(a->header["binary"], payload.size());
    ASSERT_EQ(a->binary.size(), payload.size());
    EXPECT_EQ(std::memcmp(a->binary.data(), payload.data(), payload.size()), 0);
    auto b = reader.read();
    ASSERT_TRUE(b);
    EXPECT_EQ(b->header["text"], "line\nbreak");
    EXPECT_FALSE(reader.read());
}

TEST(MessageChannel, AFrameTooLargeToHoldIsAProtocolErrorAndALargeOneComesWhole)
{
    Pipe p;
    // 256 KiB of a pattern no zeroed or shifted byte could pass for, after a frame no machine can hold.
    std::string payload(std::size_t(256) << 10, '\0');
    for (std::size_t i = 0; i < payload.size(); ++i)
        payload[i] = char((i * 131 + i / 251) & 0xff);
    const std::string wire = "{\"id\": 1, \"binary\": 4611686018427387904}\n";
    ASSERT_EQ(kw::fd::write(p.fd[1], wire.data(), wire.size()), long(wire.size()));
    p.closeWrite();
    MessageChannel reader(p.fd[0], -1);
    try {
        reader.read();
        ADD_FAILURE() << "a frame of 2^62 bytes was taken";
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Protocol);
        EXPECT_NE(std::string(e.what()).find("more than this machine can hold"), std::string::npos) << e.what();
    }

    Pipe q;
    std::thread writer([&] {
        MessageChannel(-1, q.fd[1]).write({{"id", 2}}, payload.data(), payload.size());
        q.closeWrite();
    });
    MessageChannel second(q.fd[0], -1);
    const auto m = second.read();
    writer.join();
    ASSERT_TRUE(m);
    ASSERT_EQ(m->binary.size(), payload.size());
    EXPECT_EQ(std::memcmp(m->binary.data(), payload.data(), payload.size()), 0);
}

TEST(MessageChannel, PendingBytesComeFirstAndALastLineNeedsNoNewline)
{
    Pipe p;
    const std::string rest = "{\"id\": 3}";
    ASSERT_EQ(kw::fd::write(p.fd[1], rest.data(), rest.size()), long(rest.size()));
    p.closeWrite();
    MessageChannel reader(p.fd[0], -1, "{\"id\": 1}\n\n{\"id\": 2}\n");
    EXPECT_EQ(reader.read()->header["id"], 1);
    EXPECT_EQ(reader.unread(), "\n{\"id\": 2}\n");
    EXPECT_EQ(reader.read()->header["id"], 2);
    EXPECT_EQ(reader.read()->header["id"], 3);
    EXPECT_FALSE(reader.read());
}

TEST(MessageChannel, BadLinesThrowAndAreConsumed)
{
    Pipe p;
    const std::string text = "not json\n[1,2]\n{\"binary\": \"x\"}\n{\"ok\": true}\n{\"binary\": 100}\nshort";
    ASSERT_EQ(kw::fd::write(p.fd[1], text.data(), text.size()), long(text.size()));
    p.closeWrite();
    MessageChannel reader(p.fd[0], -1);
    EXPECT_THROW(reader.read(), Error);
    EXPECT_THROW(reader.read(), Error);
    EXPECT_THROW(reader.read(), Error);
    EXPECT_EQ(reader.read()->header["ok"], true);
    EXPECT_THROW(reader.read(), Error); // input ends inside the binary frame
}
