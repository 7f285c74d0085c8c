// The client's side of the serve protocol: arbitrary bytes as a runner's output, read
// through a pipe by the readers ServeClient uses (RunnerReplyReader, ReturnedBuffers,
// RunnerReply) for a hello, a run of a small document and a compile, in that order.
// A refusal (kw::Error) ends the conversation, as it does for `kwb-run run --runner`.
#include "FuzzInput.hpp"
#include "data/NdArray.hpp"
#include "serve/MessageChannel.hpp"
#include "serve/ReturnedBuffers.hpp"
#include "serve/RunnerReply.hpp"
#include "serve/RunnerReplyReader.hpp"

#include <thread>
#include <unistd.h>

namespace {

kw::BufferSpec buffer(const char* name, kw::DType dtype, const char* count, kw::Direction direction)
{
    kw::BufferSpec b;
    b.name = name;
    b.dtype = dtype;
    b.count = count;
    b.direction = direction;
    return b;
}

// Buffers a frame may claim to be: a known count, a 2-D shape, one count only the runner knows.
kw::Document document()
{
    kw::Document doc;
    doc.variables = {{"n", "4"}};
    doc.buffers
        = {buffer("a", kw::DType::F32, "n", kw::Direction::In), buffer("c", kw::DType::F32, "n", kw::Direction::Out),
           buffer("m", kw::DType::U8, "6", kw::Direction::InOut),
           buffer("u", kw::DType::F64, "unknown_here", kw::Direction::Out)};
    doc.buffers[2].shape = {"2", "3"};
    return doc;
}

void converse(kw::MessageChannel& channel)
{
    const kw::RunnerReply decode("fuzz");
    kw::RunnerReplyReader reader(channel);
    std::map<std::string, kw::HostBuffer> frames;
    kw::ReturnedBuffers none;
    auto reply = reader.read(1, none, frames);
    if (!reply)
        return;
    decode.hello(*reply);

    const kw::Document doc = document();
    kw::ReturnedBuffers outputs(doc, "all");
    reply = reader.read(2, outputs, frames, [](const std::string&) {});
    if (!reply)
        return;
    const kw::RunResult r = decode.run(decode.result(*reply), outputs, frames);
    // What a view believes of a buffer that came back: its shape describes its data, and
    // its data holds its count of elements. Anything else is a finding.
    for (const kw::BufferResult& b : r.buffers)
        if (b.data.count()
            && (kw::NdArray::checkedElementCount(b.shape) != b.data.count()
                || b.data.byteSize() != b.data.count() * kw::sizeOf(b.data.dtype())))
            __builtin_trap();

    kw::ReturnedBuffers compile;
    reply = reader.read(3, compile, frames);
    if (reply)
        decode.compile(decode.result(*reply));
}

} // namespace

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
        kw::fuzz::refusalsOnly([&] { converse(channel); });
        // Read the rest, so the feeding thread is never left blocked on a full pipe.
        char sink[4096];
        while (read(in[0], sink, sizeof sink) > 0) { }
    }
    feed.join();
    close(in[0]);
    return 0;
}
