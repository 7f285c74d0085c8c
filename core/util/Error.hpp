#pragma once
// Failures of the machinery (not of user code): NVRTC missing, driver errors,
// bad documents. A compile error in user code is a value, never a kw::Error.
#include <optional>
#include <stdexcept>
#include <string>

namespace kw {

enum class ErrorCategory {
    Usage,      // bad command-line usage or request
    Document,   // a document field is missing or wrong
    Expression, // an expression could not be parsed or evaluated
    Io,         // file or pipe I/O
    Nvrtc,      // NVRTC missing or failed (not a compile error)
    Driver,     // CUDA driver missing or a driver call failed
    NoDevice,   // the operation needs a GPU and none is present
    Limit,      // a launch exceeds a device limit
    Fault,      // a kernel faulted
    Simulator,  // the PTX simulator cannot execute something
    Protocol,   // malformed serve message
    Untrusted,  // an untrusted document asks for an option or a file it may not
    Internal,
};

const char* toString(ErrorCategory category);

class Error : public std::runtime_error {
public:
    Error(ErrorCategory category, std::string message, std::optional<std::string> path = std::nullopt,
          std::optional<int> line = std::nullopt);

    ErrorCategory category() const noexcept { return category_; }
    const std::optional<std::string>& path() const noexcept { return path_; }
    const std::optional<int>& line() const noexcept { return line_; }

private:
    ErrorCategory category_;
    std::optional<std::string> path_;
    std::optional<int> line_;
};

} // namespace kw
