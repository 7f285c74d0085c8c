#pragma once
// Buffers that stay on a backend's device from one launch to the next, the ground of a
// document of several launches: each is uploaded once, launches name it by index
// (LaunchArg::buffer), and it is read back only when asked. Freed with the object;
// the backend that made it must outlive it.
#include "launch/LaunchTypes.hpp"
#include "launch/RecordedPass.hpp"
#include "launch/ResidentOp.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace kw {

class ResidentBuffers {
public:
    virtual ~ResidentBuffers() = default;

    // Allocates and uploads `buffer` (its bytes; its name for messages; a non-empty
    // `global` makes it the module variable of that name at every launch). Returns its index.
    virtual std::size_t add(const BufferArg& buffer) = 0;
    virtual std::size_t size() const = 0;
    // Copies buffer `index`'s current contents into `into`, which has its byte size.
    virtual void read(std::size_t index, HostBuffer& into) = 0;
    // Copies `bytes` bytes of buffer `from` at byte `fromOffset` into buffer `to` at
    // `toOffset`, on the device. The ranges lie inside the buffers (the caller checks).
    virtual void copy(std::size_t from, std::size_t fromOffset, std::size_t to, std::size_t toOffset, std::size_t bytes)
        = 0;
    // Writes `element` (one element's bytes) `count` times into buffer `index` from byte
    // `offset`, on the device.
    virtual void fill(std::size_t index, std::size_t offset, const std::vector<std::byte>& element, std::size_t count)
        = 0;
    // One launch on the resident buffers; the config's warm-up and repeats are not used
    // (the first launch time is the report's only time). A fault is in the report.
    virtual LaunchReport launch(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                                const LaunchConfig& config)
        = 0;
    // Records `ops` (one or more passes of a loop) to be replayed as a whole. This
    // default replays them one at a time through copy, fill and launch; a backend with
    // graphs builds one.
    virtual std::unique_ptr<RecordedPass> record(std::vector<ResidentOp> ops);
    // Whether record() builds graphs here (so a loop run step by step is worth a note).
    virtual bool recordsGraphs() const { return false; }
};

} // namespace kw
