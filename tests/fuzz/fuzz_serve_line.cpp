// The serve protocol's input side: lines (capped), JSON messages and binary frames,
// read through a pipe exactly as the runner reads stdin.
#include "FuzzInput.hpp"
#include "serve/MessageChannel.hpp"

#include <thread>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    int in[2];
    if (pipe(in) != 0)
        return 0;
    std::thread feed([&] {
        std::size_t done = 0;
        while (done < size) {
            const ssize_t n = write(in[1], data + done, size - done);
            if (n <= 0)
                break;
            done += std::size_t(n);
        }
        close(in[1]);
    });
    {
        kw::MessageChannel channel(in[0], -1);
        for (int messages = 0; messages < 10000; ++messages) {
            try {
                if (!channel.read())
                    break;
            } catch (const kw::Error&) {
            }
        }
    }
    feed.join();
    close(in[0]);
    return 0;
}
