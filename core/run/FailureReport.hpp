#pragma once
// What kwb-run says when a command fails: "kwb-run: document error: buffers[0].count:
// ...". The category lets scripts tell a bad document from a missing driver without
// parsing the message; an untrusted document's refusal says how to lift it.
#include <cstdio>
#include <exception>
#include <string>

namespace kw {

class FailureReport {
public:
    static std::string text(const std::exception& e);
    // Prints text(e) to `err` and returns ExitCode::of(e).
    static int print(std::FILE* err, const std::exception& e);
};

} // namespace kw
