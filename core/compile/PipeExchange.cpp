#include "compile/PipeExchange.hpp"

#ifndef _WIN32
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#endif

namespace kw {

#ifndef _WIN32

PipeExchangeOutcome PipeExchange::run(int& writeFd, std::string_view payload, bool closeWhenWritten,
                                      const std::vector<int>& readFds, std::chrono::steady_clock::time_point deadline,
                                      const std::function<bool(const std::vector<std::string>&)>& done)
{
    PipeExchangeOutcome out;
    out.read.resize(readFds.size());
    std::vector<bool> open(readFds.size(), true);
    std::size_t written = 0;
    bool writing = writeFd >= 0 && !payload.empty();
    if (writeFd >= 0)
        fcntl(writeFd, F_SETFL, fcntl(writeFd, F_GETFL) | O_NONBLOCK);
    signal(SIGPIPE, SIG_IGN);
    const auto finishWriting = [&] {
        writing = false;
        if (closeWhenWritten && writeFd >= 0) {
            close(writeFd);
            writeFd = -1;
        }
    };
    if (!writing)
        finishWriting();
    while (std::find(open.begin(), open.end(), true) != open.end()) {
        if (done && done(out.read))
            return out;
        std::vector<pollfd> fds;
        std::vector<std::size_t> which;
        for (std::size_t i = 0; i < readFds.size(); ++i)
            if (open[i]) {
                fds.push_back({readFds[i], POLLIN, 0});
                which.push_back(i);
            }
        if (writing)
            fds.push_back({writeFd, POLLOUT, 0});
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            out.timedOut = true;
            return out;
        }
        if (poll(fds.data(), fds.size(), int(std::min<long long>(left.count(), 1000))) < 0 && errno != EINTR)
            break;
        for (std::size_t k = 0; k < fds.size(); ++k) {
            if (!fds[k].revents)
                continue;
            if (writing && fds[k].fd == writeFd) {
                const ssize_t w = write(writeFd, payload.data() + written, payload.size() - written);
                if (w > 0)
                    written += std::size_t(w);
                if (w < 0 || written == payload.size())
                    finishWriting();
                continue;
            }
            char chunk[1 << 16];
            const ssize_t r = read(fds[k].fd, chunk, sizeof chunk);
            if (r > 0)
                out.read[which[k]].append(chunk, std::size_t(r));
            else if (r == 0 || errno != EINTR)
                open[which[k]] = false;
        }
    }
    out.closed = true;
    return out;
}

#else

PipeExchangeOutcome PipeExchange::run(int&, std::string_view, bool, const std::vector<int>&,
                                      std::chrono::steady_clock::time_point,
                                      const std::function<bool(const std::vector<std::string>&)>&)
{
    return {};
}

#endif

} // namespace kw
