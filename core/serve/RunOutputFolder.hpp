#pragma once
// `kwb-run run --out DIR`: the run's output buffers (out and inout) as DIR/NAME.npy,
// none after a fault, and the run result as DIR/result.json.
#include "launch/RunResult.hpp"

#include <filesystem>

namespace kw {

class RunOutputFolder {
public:
    // Creates the folder as needed. Throws (kw::Error, std::filesystem_error) when it
    // cannot be written, and kw::Error(Protocol), writing nothing, when a buffer's name
    // is not a plain file name (util/PlainFileName).
    static void write(const std::filesystem::path& dir, const RunResult& r);
};

} // namespace kw
