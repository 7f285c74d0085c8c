#pragma once
// `kwb-run run --out DIR`: the run's output buffers (out and inout) as DIR/NAME.npy,
// none after a fault, and the run result as DIR/result.json. With --out-after STEP, every
// buffer as that step left it as DIR/after-step-STEP/NAME.npy (DIR/after-step-2.1/u.npy).
#include "launch/RunResult.hpp"

#include <filesystem>

namespace kw {

class RunOutputFolder {
public:
    // Creates the folder as needed. Throws (kw::Error, std::filesystem_error) when it
    // cannot be written, and kw::Error(Protocol), writing nothing, when a buffer's name
    // is not a plain file name (util/PlainFileName).
    static void write(const std::filesystem::path& dir, const RunResult& r);
    // The folder of the buffers after step `path` in DIR.
    static std::filesystem::path afterStep(const std::filesystem::path& dir, const std::string& path);
};

} // namespace kw
