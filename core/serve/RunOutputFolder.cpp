#include "serve/RunOutputFolder.hpp"

#include "data/NpyFile.hpp"
#include "serve/ResultJson.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

namespace kw {

void RunOutputFolder::write(const std::filesystem::path& dir, const RunResult& r)
{
    std::filesystem::create_directories(dir);
    for (const auto& b : r.buffers)
        if (b.direction != Direction::In && !r.fault)
            NpyFile::write(dir / (b.name + ".npy"), b.data, b.shape);
    std::ofstream(dir / "result.json") << toJson(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                                       << "\n";
}

} // namespace kw
