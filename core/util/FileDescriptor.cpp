#include "util/FileDescriptor.hpp"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

namespace kw::fd {

#ifdef _WIN32
int duplicate(int fd) { return _dup(fd); }
int duplicateTo(int fd, int target) { return _dup2(fd, target); }
int makePipe(int fds[2]) { return _pipe(fds, 1 << 16, _O_BINARY | _O_NOINHERIT); }
long read(int fd, char* buf, std::size_t n) { return _read(fd, buf, unsigned(n)); }
long write(int fd, const char* buf, std::size_t n) { return _write(fd, buf, unsigned(n)); }
int close(int fd) { return _close(fd); }
void setBinary(int fd) { _setmode(fd, _O_BINARY); }
bool isTerminal(int fd) { return _isatty(fd) != 0; }
std::FILE* openStream(int fd, const char* mode) { return _fdopen(fd, mode); }
#else
int duplicate(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 3); }
int duplicateTo(int fd, int target) { return ::dup2(fd, target); }
int makePipe(int fds[2])
{
    if (::pipe(fds) != 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}
long read(int fd, char* buf, std::size_t n) { return long(::read(fd, buf, n)); }
long write(int fd, const char* buf, std::size_t n) { return long(::write(fd, buf, n)); }
int close(int fd) { return ::close(fd); }
void setBinary(int) { }
bool isTerminal(int fd) { return ::isatty(fd) != 0; }
std::FILE* openStream(int fd, const char* mode) { return ::fdopen(fd, mode); }
#endif

} // namespace kw::fd
