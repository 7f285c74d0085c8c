// `kwb-run serve` as a core class (serve/ServeCommand), in this process: it answers
// the requests on stdin on stdout, serving the input a previous runner left on
// --pending-fd first.
#include "serve/Protocol.hpp"
#include "serve/ServeCommand.hpp"
#include "support/TempDir.hpp"
#include "util/FileDescriptor.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
namespace fd = kw::fd;
namespace protocol = kw::protocol;
using nlohmann::json;

namespace {

// Runs the command with stdin and stdout on files; returns each line it wrote.
std::vector<json> serve(const std::string& input, const kw::ServeCommand::Options& options, int& code)
{
    const fs::path dir = kw::test::freshDir("kw_test_serve_command", "io");
    std::ofstream(dir / "in") << input;
    const int in = ::open((dir / "in").c_str(), O_RDONLY);
    const int out = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::fflush(stdout);
    const int savedIn = fd::duplicate(0), savedOut = fd::duplicate(1);
    fd::duplicateTo(in, 0);
    fd::duplicateTo(out, 1);
    code = kw::ServeCommand::execute(options);
    std::fflush(stdout);
    fd::duplicateTo(savedIn, 0);
    fd::duplicateTo(savedOut, 1);
    for (int f : {in, out, savedIn, savedOut})
        fd::close(f);
    std::vector<json> lines;
    std::ifstream written(dir / "out");
    for (std::string line; std::getline(written, line);)
        lines.push_back(json::parse(line));
    return lines;
}

std::string line(const json& message) { return protocol::encode(message); }

} // namespace

TEST(ServeCommand, AnswersTheRequestsOnStdinUntilShutdown)
{
    int code = -1;
    const auto replies
        = serve(line(protocol::request(1, protocol::op::kHello)) + line(protocol::request(2, protocol::op::kShutdown))
                    + line(protocol::request(3, protocol::op::kHello)),
                {}, code);
    EXPECT_EQ(code, 0);
    ASSERT_EQ(replies.size(), 2u) << "nothing after shutdown";
    EXPECT_EQ(replies[0]["id"], 1);
    EXPECT_EQ(replies[0]["result"]["protocol"], protocol::kVersion);
    EXPECT_EQ(replies[1]["id"], 2);
    EXPECT_TRUE(replies[1]["ok"].get<bool>());
}

TEST(ServeCommand, ServesThePendingInputFirst)
{
    int pending[2];
    ASSERT_EQ(fd::makePipe(pending), 0);
    const std::string first = line(protocol::request(7, protocol::op::kDevices));
    ASSERT_EQ(fd::write(pending[1], first.data(), first.size()), long(first.size()));
    fd::close(pending[1]);
    kw::ServeCommand::Options options;
    options.pendingFd = pending[0]; // read and closed by the command
    int code = -1;
    const auto replies = serve(line(protocol::request(8, protocol::op::kShutdown)), options, code);
    EXPECT_EQ(code, 0);
    ASSERT_EQ(replies.size(), 2u);
    EXPECT_EQ(replies[0]["id"], 7);
    EXPECT_TRUE(replies[0]["result"]["devices"].is_array());
    EXPECT_EQ(replies[1]["id"], 8);
}
#endif
