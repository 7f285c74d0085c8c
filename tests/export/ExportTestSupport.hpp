#pragma once
// Shared by the export tests: exporting a sample, running a command, building the
// exported C++ program with the CUDA Toolkit's headers (no GPU needed to build it), and
// comparing the checks a program prints with kwb-run's.
#include "doc/DocumentReader.hpp"
#include "export/DocumentExport.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kwtest {

namespace fs = std::filesystem;

struct Shell {
    int code = -1;
    std::string output; // stdout and stderr together
};

inline std::string quoted(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

inline Shell shell(const std::string& command)
{
    Shell r;
    std::FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (!p)
        return r;
    std::array<char, 4096> chunk{};
    for (std::size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), p)) > 0;)
        r.output.append(chunk.data(), n);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline bool haveCommand(const std::string& name) { return shell("command -v " + name + " >/dev/null").code == 0; }

inline std::string kwbRunPath() { return std::string(KW_BIN_DIR) + "/kwb-run"; }

inline std::vector<std::string> exportSample(const std::string& stem, kw::exporting::ExportTarget target,
                                             const fs::path& folder)
{
    const kw::Document doc = kw::DocumentReader::readFile(std::string(KW_SAMPLES_DIR) + "/" + stem + ".kwb");
    kw::exporting::ExportRequest request;
    request.target = target;
    request.folder = folder;
    request.compileWorker = kwbRunPath();
    return kw::exporting::DocumentExport::write(doc, request);
}

inline std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A folder holding libcuda.so.1 as the toolkit's stub: a program linked against the
// driver starts without one, as long as it calls nothing of it (--check-outputs).
inline fs::path stubDriverFolder()
{
    static const fs::path dir = [] {
        const fs::path d = kw::test::freshDir("kw_export", "stub_driver");
        fs::create_symlink(fs::path(KW_CUDA_LIBRARY_DIR) / "stubs" / "libcuda.so", d / "libcuda.so.1");
        return d;
    }();
    return dir;
}

// Builds the exported run.cpp as CI does: the toolkit's headers, -Wall -Wextra -Werror,
// linked against the driver's stub and NVRTC.
inline Shell buildCpp(const fs::path& folder, const fs::path& binary)
{
    return shell("c++ -std=c++17 -O1 -Wall -Wextra -Werror -I" + quoted(KW_CUDA_INCLUDE_DIR)
                 + " -DKWB_CUDA_INCLUDE_DIR=" + quoted("\"" + std::string(KW_CUDA_INCLUDE_DIR) + "\"") + " -o "
                 + quoted(binary.string()) + " " + quoted((folder / "run.cpp").string()) + " -L"
                 + quoted(std::string(KW_CUDA_LIBRARY_DIR) + "/stubs") + " -L" + quoted(KW_CUDA_LIBRARY_DIR)
                 + " -lcuda -lnvrtc");
}

// The document-level check lines of a summary: from its first unindented "check" line on.
inline std::string documentCheckLines(const std::string& summary)
{
    std::istringstream in(summary);
    std::string text;
    bool on = false;
    for (std::string line; std::getline(in, line);) {
        on = on || line.rfind("check    ", 0) == 0;
        if (on)
            text += line + "\n";
    }
    return text;
}

} // namespace kwtest
