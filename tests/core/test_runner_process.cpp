// RunnerProcess: a command line run through the system's shell (/bin/sh, cmd.exe on
// Windows) with pipes on its standard handles; the same assertions on both systems.
#include "support/FakeRunner.hpp"

#include "run/ComputeSanitizerCommand.hpp"
#include "serve/RunnerProcess.hpp"
#include "util/FileDescriptor.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string readUntilEnd(int fd)
{
    std::string all;
    char chunk[256];
    for (long n; (n = kw::fd::read(fd, chunk, sizeof chunk)) > 0;)
        all.append(chunk, std::size_t(n));
    return all;
}

void writeAll(int fd, const std::string& text)
{
    for (std::size_t done = 0; done < text.size();) {
        const long n = kw::fd::write(fd, text.data() + done, text.size() - done);
        ASSERT_GT(n, 0);
        done += std::size_t(n);
    }
}

} // namespace

TEST(RunnerProcess, ItsPipesCarryBytesBothWaysAndItsExitIsReported)
{
    kw::RunnerProcess runner(kwtest::fakeRunner("echo"));
    EXPECT_GT(runner.pid(), 0);
    writeAll(runner.inputFd(), "first\nsecond line\n");
    runner.closeInput();
    EXPECT_EQ(readUntilEnd(runner.outputFd()), "first\nsecond line\n");
    EXPECT_EQ(runner.wait(), "exited with status 0");
    EXPECT_EQ(runner.stderrTail(), "");
}

TEST(RunnerProcess, ItsExitStatusAndTheEndOfItsStderrAreKept)
{
    kw::RunnerProcess runner(kwtest::fakeRunner("fail 7 \"the runner says why\""));
    runner.closeInput();
    EXPECT_EQ(readUntilEnd(runner.outputFd()), "");
    EXPECT_EQ(runner.wait(), "exited with status 7");
    EXPECT_EQ(runner.stderrTail(), "the runner says why");
}

TEST(RunnerProcess, KillEndsTheShellAndWhatItStarted)
{
    kw::RunnerProcess runner(kwtest::fakeRunner("echo"));
    writeAll(runner.inputFd(), "ping\n");
    char got[5] = {};
    std::size_t have = 0;
    while (have < sizeof got) {
        const long n = kw::fd::read(runner.outputFd(), got + have, sizeof got - have);
        ASSERT_GT(n, 0);
        have += std::size_t(n);
    }
    EXPECT_EQ(std::string(got, sizeof got), "ping\n");
    // The stand-in still waits for input; killing it must close its stdout, which only
    // happens when the program the shell started has ended too.
    runner.kill();
    EXPECT_EQ(readUntilEnd(runner.outputFd()), "");
    const std::string how = runner.wait();
#ifdef _WIN32
    EXPECT_EQ(how, "was stopped");
#else
    EXPECT_EQ(how, "was killed by signal 9");
#endif
}

TEST(RunnerProcess, WordsQuotedForTheShellReachTheProgramUnchanged)
{
    // ComputeSanitizerCommand's quoting is for this shell: /bin/sh, or cmd.exe and the
    // program's argument parser on Windows (where % would still expand).
    using kw::ComputeSanitizerCommand;
    const std::vector<std::string> words
        = {"plain", "two words", "it's", "\"quoted\"", "a\\b\\", "*", "$HOME;x", "a & b | c > d", ""};
    std::string line = ComputeSanitizerCommand::shellQuote(kwtest::fakeRunnerPath()) + " args";
    for (const std::string& w : words)
        line += " " + ComputeSanitizerCommand::shellQuote(w);
    kw::RunnerProcess runner(line);
    runner.closeInput();
    std::string expected;
    for (const std::string& w : words)
        expected += w + "\n";
    EXPECT_EQ(readUntilEnd(runner.outputFd()), expected) << line;
    EXPECT_EQ(runner.wait(), "exited with status 0") << runner.stderrTail();
}
