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
    const auto judge = [](const std::string& what, const std::string& name) {
        if (const auto problem = PlainFileName::problem(name))
            throw Error(ErrorCategory::Protocol,
                        what + " " + PlainFileName::quoted(name) + " cannot be written as a file: " + *problem);
    };
    for (const auto& b : r.buffers)
        if (written(b))
            judge("buffer", b.name);
    for (const StepResult& s : r.steps)
        if (!s.buffers.empty()) {
            judge("step", afterStep({}, s.path).string());
            for (const BufferResult& b : s.buffers)
                judge("buffer", b.name);
        }
    std::filesystem::create_directories(dir);
    for (const auto& b : r.buffers)
        if (written(b))
            NpyFile::write(dir / (b.name + ".npy"), b.data, b.shape);
    for (const StepResult& s : r.steps) {
        if (s.buffers.empty())
            continue;
        const std::filesystem::path folder = afterStep(dir, s.path);
        std::filesystem::create_directories(folder);
        for (const BufferResult& b : s.buffers)
            NpyFile::write(folder / (b.name + ".npy"), b.data, b.shape);
    }
    std::ofstream(dir / "result.json") << toJson(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                                       << "\n";
}

std::filesystem::path RunOutputFolder::afterStep(const std::filesystem::path& dir, const std::string& path)
{
    return dir / ("after-step-" + path);
}

} // namespace kw
