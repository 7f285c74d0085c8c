#pragma once
// One environment variable set for the child processes a test starts while this lives,
// and removed after; on POSIX and on Windows (where the CRT has no setenv).
#include <cstdlib>
#include <string>
#include <utility>

namespace kw::test {

class ScopedEnvironment {
public:
    ScopedEnvironment(std::string name, const std::string& value)
        : name_(std::move(name))
    {
#ifdef _WIN32
        _putenv_s(name_.c_str(), value.c_str());
#else
        ::setenv(name_.c_str(), value.c_str(), 1);
#endif
    }
    ~ScopedEnvironment()
    {
#ifdef _WIN32
        _putenv_s(name_.c_str(), "");
#else
        ::unsetenv(name_.c_str());
#endif
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    std::string name_;
};

} // namespace kw::test
