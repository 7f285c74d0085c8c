#pragma once
// The few raw descriptor calls the runner and the CLI need, spelled once for each
// platform. New descriptors are close-on-exec, so a re-exec'd runner inherits none by
// accident.
#include <cstddef>
#include <cstdio>

namespace kw::fd {

int duplicate(int fd);               // dup, at 3 or above
int duplicateTo(int fd, int target); // dup2
int makePipe(int fds[2]);            // 0 on success
long read(int fd, char* buf, std::size_t n);
long write(int fd, const char* buf, std::size_t n);
int close(int fd);
void setBinary(int fd);                          // no newline translation (only Windows has any)
bool isTerminal(int fd);                         // isatty
std::FILE* openStream(int fd, const char* mode); // fdopen: the stream owns fd; null on failure

} // namespace kw::fd
