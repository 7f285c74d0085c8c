#pragma once
// One environment variable set (or removed) while this lives, for the test and the child
// processes it starts, and put back as it was after; on POSIX and on Windows (where the
// CRT has no setenv).
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace kw::test {

class ScopedEnvironment {
public:
    // `value` empty (std::nullopt): the variable is removed while this lives.
    ScopedEnvironment(std::string name, const std::optional<std::string>& value)
        : name_(std::move(name))
    {
        if (const char* old = std::getenv(name_.c_str()))
            old_ = old;
        assign(name_, value);
    }
    ~ScopedEnvironment() { assign(name_, old_); }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

    static void assign(const std::string& name, const std::optional<std::string>& value)
    {
#ifdef _WIN32
        _putenv_s(name.c_str(), value ? value->c_str() : ""); // "" removes it
#else
        if (value)
            ::setenv(name.c_str(), value->c_str(), 1);
        else
            ::unsetenv(name.c_str());
#endif
    }

private:
    std::string name_;
    std::optional<std::string> old_;
};

} // namespace kw::test
