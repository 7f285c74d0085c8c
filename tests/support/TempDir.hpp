#pragma once
// Empty folders for a test, named for the process so parallel test executables do not
// meet, and removed when the process exits.
#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace kw::test {

inline int processId()
{
#ifdef _WIN32
    return _getpid();
#else
    return getpid();
#endif
}

// A fresh, empty folder `<temp>/<prefix>_<pid>_<name>`.
inline std::filesystem::path freshDir(const std::string& prefix, const std::string& name)
{
    struct Made {
        std::vector<std::filesystem::path> dirs;
        ~Made()
        {
            // A process of the test's may still be removing its own files in there
            // (a remote serve's cache): remove_all stops at the first file that vanished
            // under it, so it tries again.
            for (const auto& d : dirs)
                for (int attempt = 0; attempt < 5; ++attempt) {
                    std::error_code ec;
                    std::filesystem::remove_all(d, ec);
                    if (!std::filesystem::exists(d, ec))
                        break;
                }
        }
    };
    static Made made;
    const std::filesystem::path d
        = std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(processId()) + "_" + name);
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    made.dirs.push_back(d);
    return d;
}

} // namespace kw::test
