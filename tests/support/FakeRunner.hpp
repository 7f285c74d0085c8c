#pragma once
// The command line of tests/support/fake_runner.cpp (built beside the tests), quoted
// so that /bin/sh and cmd.exe both run it.
#include <string>

namespace kwtest {

inline std::string fakeRunnerPath()
{
#ifdef _WIN32
    return std::string(KW_BIN_DIR) + "/kwtest-fake-runner.exe";
#else
    return std::string(KW_BIN_DIR) + "/kwtest-fake-runner";
#endif
}

inline std::string fakeRunner(const std::string& arguments) { return "\"" + fakeRunnerPath() + "\" " + arguments; }

} // namespace kwtest
