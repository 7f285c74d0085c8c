#pragma once
// A folder for one bad-input case: `scratch/` where the case may write, `io/` for the
// captured output, and around them `outside/` with a canary file that no case may touch.
// snapshot() lists everything except scratch/ and io/ (type, size, time, content of small
// files), so a before/after comparison shows any change outside the scratch folder.
#include "support/TempDir.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>

namespace kw::test {

class ScratchArea {
public:
    explicit ScratchArea(const std::string& name)
        : root_(freshDir("kw_robustness", name))
    {
        std::filesystem::create_directories(scratch());
        std::filesystem::create_directories(io());
        std::filesystem::create_directories(outside());
        std::ofstream(outside() / "canary.txt") << "canary: any change to this file is a failure\n";
        std::ofstream(outside() / "secret.env") << "KW_SECRET_TOKEN=do-not-disclose\n";
        std::ofstream(root_ / "neighbour.txt") << "a file next to the scratch folder\n";
    }

    std::filesystem::path root() const { return root_; }
    std::filesystem::path scratch() const { return root_ / "scratch"; }
    std::filesystem::path io() const { return root_ / "io"; }
    std::filesystem::path outside() const { return root_ / "outside"; }

    // Everything under root() but scratch/ and io/, one line per entry.
    std::map<std::string, std::string> snapshot() const
    {
        std::map<std::string, std::string> out;
        std::error_code ec;
        auto it = std::filesystem::recursive_directory_iterator(root_, ec);
        for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            const auto& p = it->path();
            if (p == scratch() || p == io()) {
                it.disable_recursion_pending();
                continue;
            }
            const auto status = std::filesystem::symlink_status(p, ec);
            std::ostringstream line;
            line << int(status.type());
            if (status.type() == std::filesystem::file_type::regular) {
                line << " size " << std::filesystem::file_size(p, ec) << " time "
                     << std::filesystem::last_write_time(p, ec).time_since_epoch().count();
                std::ifstream in(p, std::ios::binary);
                std::ostringstream content;
                content << in.rdbuf();
                line << " content " << content.str();
            }
            out[std::filesystem::relative(p, root_).string()] = line.str();
        }
        return out;
    }

private:
    std::filesystem::path root_;
};

} // namespace kw::test
