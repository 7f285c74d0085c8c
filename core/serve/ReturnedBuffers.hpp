#pragma once
// What a runner may send back for a request (docs/protocol.md, "Replies"), judged by the
// client, which never believes its runner: buffer frames and the result's buffer list may
// name only buffers of the request's document, each once, by a plain file name
// (util/PlainFileName), with the dtype and the element count the client evaluated, and a
// frame's bytes must be exactly count × element size. A frame of the buffers after a step
// ("step": its path) must be of a step the request asked for (step_buffers). Anything else
// is kw::Error(Protocol) naming the buffer, raised before anything is allocated for a frame.
#include "data/DType.hpp"
#include "data/Direction.hpp"
#include "data/HostBuffer.hpp"
#include "doc/Document.hpp"
#include "launch/RunResult.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

class ReturnedBuffers {
public:
    // A frame as its checked header announces it: enough to allocate its buffer.
    struct Frame {
        std::string name;
        std::string step; // a buffer after this step; empty: the run's final buffers
        DType dtype = DType::U8;
        std::size_t count = 0;
    };

    // A request that returns no buffers (hello, devices, compile): every frame is refused.
    ReturnedBuffers() = default;
    // A run of `doc` with "return_buffers" `returnBuffers` ("outputs", "all" or "none") and
    // "step_buffers" `stepBuffers` (step paths, "*" for all).
    ReturnedBuffers(const Document& doc, std::string_view returnBuffers,
                    const std::vector<std::string>& stepBuffers = {});

    // The key of a frame in the frames of a reply: the buffer's name, or "STEP/NAME" for
    // a buffer after a step (a plain file name has no '/').
    static std::string frameKey(const std::string& step, const std::string& name);

    // Checks a buffer event's header and the size of its payload before the payload is read.
    Frame admit(const nlohmann::json& header, std::uint64_t payloadBytes);

    // Checks the run result's buffer lists, its own and its steps' (names, dtypes,
    // directions, shapes), and gives each listed buffer the frame that came for it as its data.
    void attach(RunResult& result, std::map<std::string, HostBuffer>& frames) const;

    // The most elements a buffer may have (doc/BufferFactory's limit), for a count the
    // client could not evaluate.
    static constexpr std::size_t kMostElements = std::size_t(1) << 40;

private:
    struct Expected {
        DType dtype = DType::F32;
        Direction direction = Direction::InOut;
        std::optional<std::vector<std::size_t>> shape; // as the client evaluated it, when it could
        std::optional<std::size_t> count;
        bool returned = false; // may come back as a frame (return_buffers)
    };
    // The document's buffer `name` (what: "buffer frame", "result buffer"); refuses any other name.
    const Expected& expected(const std::string& name, const char* what) const;
    void attachList(std::vector<BufferResult>& list, const std::string& step,
                    std::map<std::string, HostBuffer>& frames) const;

    std::map<std::string, Expected> buffers_;
    std::set<std::string> framed_; // frame keys
    std::set<std::string> steps_;  // the steps whose buffers may come back
};

} // namespace kw
