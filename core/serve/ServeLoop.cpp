#include "serve/ServeLoop.hpp"

#include "launch/PrintfCapture.hpp"
#include "serve/JobDispatcher.hpp"
#include "serve/MessageChannel.hpp"
#include "serve/ProcessRestart.hpp"
#include "util/Error.hpp"
#include "util/FileDescriptor.hpp"

#include <cstdio>

namespace kw {

ServeLoop::ServeLoop(std::intptr_t pendingFd)
{
    if (pendingFd >= 0)
        pending_ = ProcessRestart::readPending(pendingFd);
}

int ServeLoop::run()
{
    // Before anything loads the driver: device printf must land in our pipe, and
    // the protocol keeps a private copy of the real stdout.
    // Binary frames travel both ways: no newline translation (Windows' text mode).
    fd::setBinary(0);
    fd::setBinary(1);
    PrintfCapture capture;
    MessageChannel channel(0, capture.protocolFd(), std::move(pending_));
    JobDispatcher dispatcher(channel, &capture);
    for (;;) {
        std::optional<Message> request;
        try {
            request = channel.read();
        } catch (const Error& e) {
            dispatcher.replyError(nullptr, e);
            continue;
        }
        if (!request)
            return 0;
        switch (dispatcher.handle(*request)) {
        case JobDispatcher::Next::Continue: break;
        case JobDispatcher::Next::Exit: return 0;
        case JobDispatcher::Next::Restart:
            ProcessRestart::replaceProcess(dispatcher.replay() + channel.unread(), &capture);
        }
    }
}

} // namespace kw
