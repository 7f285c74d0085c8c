// The sentence shown for a runner that ended: the hint matches what its command wrote.
#include "serve/RunnerFailure.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {
std::string describe(const std::string& err)
{
    return RunnerFailure::describe("ssh gpu kwb-run serve", "exited with status 1", err);
}
} // namespace

TEST(RunnerFailure, NamesTheCommandHowItEndedAndStderrsLastLine)
{
    EXPECT_EQ(describe("first\nsomething odd"),
              "the runner \"ssh gpu kwb-run serve\" exited with status 1 (something odd)");
    EXPECT_EQ(describe(""), "the runner \"ssh gpu kwb-run serve\" exited with status 1");
}

TEST(RunnerFailure, SshRefusalsSayWhatToDo)
{
    EXPECT_NE(describe("Host key verification failed.").find("does not know this host's key"), std::string::npos);
    EXPECT_NE(describe("user@gpu: Permission denied (publickey).").find("install an SSH key"), std::string::npos);
    EXPECT_NE(describe("ssh: Could not resolve hostname gpu: Name or service not known").find("cannot be reached"),
              std::string::npos);
    EXPECT_NE(describe("slurmstepd: error: *** STEP 12.0 CANCELLED AT 2026-12-06 ***").find("scheduler ended"),
              std::string::npos);
}

TEST(RunnerFailure, AMissingKwbRunIsRecognisedAsEachShellSaysIt)
{
    const std::string hint = "kwb-run is not installed where the command runs";
    EXPECT_NE(describe("sh: 1: kwb-run: not found").find(hint), std::string::npos);
    EXPECT_NE(describe("bash: line 1: kwb-run: command not found").find(hint), std::string::npos);
    EXPECT_NE(describe("'kwb-run' is not recognized as an internal or external command,\n"
                       "operable program or batch file.")
                  .find(hint),
              std::string::npos)
        << "cmd.exe, which runs a runner command on Windows";
    EXPECT_NE(describe("The system cannot find the path specified.").find(hint), std::string::npos);
    EXPECT_EQ(describe("kernel failed: out of memory").find(hint), std::string::npos);
}
