#include "serve/RunOutputFolder.hpp"

#include "data/NpyFile.hpp"
#include "serve/ResultJson.hpp"
#include "util/Error.hpp"
#include "util/PlainFileName.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

namespace kw {

void RunOutputFolder::write(const std::filesystem::path& dir, const RunResult& r)
{
    const auto written = [&](const BufferResult& b) { return b.direction != Direction::In && !r.fault; };
    // Names may have come from a runner: every one is judged before anything is written,
    // so a bad one leaves the folder as it was.
    for (const auto& b : r.buffers)
        if (const auto problem = PlainFileName::problem(b.name); problem && written(b))
            throw Error(ErrorCategory::Protocol,
                        "buffer " + PlainFileName::quoted(b.name) + " cannot be written as a file: " + *problem);
    std::filesystem::create_directories(dir);
    for (const auto& b : r.buffers)
        if (written(b))
            NpyFile::write(dir / (b.name + ".npy"), b.data, b.shape);
    std::ofstream(dir / "result.json") << toJson(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                                       << "\n";
}

} // namespace kw
