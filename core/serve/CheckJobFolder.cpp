#include "serve/CheckJobFolder.hpp"

#include "data/NpyFile.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentWriter.hpp"
#include "serve/JobCodec.hpp"
#include "util/ConfinedFolder.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <random>

namespace kw {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path freshFolder(const fs::path& parent)
{
    std::error_code ec;
    fs::create_directories(parent, ec);
    std::random_device random;
    for (int attempt = 0; attempt < 16; ++attempt) {
        const fs::path candidate = parent / fmt::format("{:08x}{:08x}", random(), random());
        if (fs::create_directory(candidate, ec)) {
            // As the child's working folder reads (compute-sanitizer's paths are under it).
            const fs::path real = fs::canonical(candidate, ec);
            return ec ? fs::absolute(candidate) : real;
        }
    }
    throw Error(ErrorCategory::Io,
                "cannot create a folder for the checked run under " + parent.string()
                    + (ec ? ": " + ec.message() : std::string()));
}

void writeText(const fs::path& file, const std::string& body)
{
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(body.data(), std::streamsize(body.size()));
    if (!out)
        throw Error(ErrorCategory::Io, "cannot write " + file.string());
}

} // namespace

CheckJobFolder::CheckJobFolder(const Document& doc, const fs::path& parent, double launchLimitSeconds)
    : sourceName_(doc.sourceName())
    , includeDirs_(doc.options.includeDirs)
{
    // Initialisers that came with a remote job are in memory; JobCodec reads the others.
    Document forEncoding = doc;
    std::map<std::string, NdArray> attached;
    for (BufferSpec& b : forEncoding.buffers) {
        if (b.init.kind != Initialiser::Kind::File || !doc.attachedFiles)
            continue;
        if (auto it = doc.attachedFiles->find(b.init.file); it != doc.attachedFiles->end()) {
            attached.emplace(b.init.file, it->second);
            b.init.kind = Initialiser::Kind::Zeros; // not for JobCodec to read
        }
    }
    const EncodedJob job = JobCodec::encode(forEncoding, "run", 0, "");

    folder_ = freshFolder(parent);
    try {
        for (const json& inc : job.header.at("includes")) {
            const fs::path rel = fs::path(inc.at("path").get<std::string>()).lexically_normal();
            if (!ConfinedFolder::staysInside(rel))
                throw Error(ErrorCategory::Internal, "header path \"" + rel.string() + "\" leaves the folder");
            writeText(folder_ / rel, inc.at("text").get<std::string>());
        }

        // Each initialiser file as _files/<n>.npy, in the dtype JobCodec converted it to.
        std::map<std::string, std::string> renamed;
        auto writeArray = [&](const std::string& name, const NdArray& a) {
            const std::string file = fmt::format("_files/{}.npy", renamed.size());
            std::error_code ec;
            fs::create_directories(folder_ / "_files", ec);
            NpyFile::write(folder_ / file, a.data, a.shape);
            renamed.emplace(name, file);
        };
        for (const json& f : job.header.at("files")) {
            const auto dtype = parseDType(f.at("dtype").get<std::string>());
            const std::size_t count = f.at("count").get<std::size_t>();
            const std::size_t offset = f.at("offset").get<std::size_t>();
            const std::size_t bytes = f.at("bytes").get<std::size_t>();
            if (!dtype || offset > job.payload.size() || bytes > job.payload.size() - offset)
                throw Error(ErrorCategory::Internal,
                            "initialiser file \"" + f.at("file").get<std::string>() + "\" does not fit its job's data");
            NdArray a;
            a.data = HostBuffer(*dtype, count);
            if (bytes)
                std::memcpy(a.data.data(), job.payload.data() + offset, bytes);
            a.shape = f.value("shape", std::vector<std::size_t>{count});
            writeArray(f.at("file").get<std::string>(), a);
        }
        for (const auto& [name, a] : attached)
            writeArray(name, a);

        Document child = DocumentReader::parse(job.header.at("document").dump(), documentFile(), doc.trust);
        for (BufferSpec& b : child.buffers) {
            const auto original = std::find_if(doc.buffers.begin(), doc.buffers.end(), [&](const BufferSpec& o) {
                return o.name == b.name && o.global == b.global;
            });
            if (original == doc.buffers.end() || original->init.kind != Initialiser::Kind::File)
                continue;
            b.init = original->init;
            if (auto it = renamed.find(original->init.file); it != renamed.end())
                b.init.file = it->second;
        }
        // One launch, whose findings are the run's; line numbers for every finding.
        child.run.warmup = 0;
        child.run.repeats = 0;
        child.run.timeLimitSeconds = launchLimitSeconds;
        child.options.lineInfo = true;
        DocumentWriter::writeFile(child, documentFile());
    } catch (...) {
        std::error_code ec;
        fs::remove_all(folder_, ec);
        throw;
    }
}

CheckJobFolder::~CheckJobFolder()
{
    std::error_code ec;
    fs::remove_all(folder_, ec);
}

std::string CheckJobFolder::userPath(const std::string& childPath) const
{
    // The child compiles its inline source as "kernel.cu".
    const fs::path p(childPath);
    if (childPath == "kernel.cu" || p == folder_ / "kernel.cu")
        return sourceName_;
    const std::string prefix = folder_.generic_string() + "/";
    std::string rel = p.generic_string();
    if (rel.rfind(prefix, 0) != 0)
        return childPath;
    rel.erase(0, prefix.size());
    // A header of an include folder outside the document's: "_include<N>/x.cuh".
    if (rel.rfind("_include", 0) == 0) {
        const std::size_t slash = rel.find('/');
        std::size_t n = 0;
        const std::string digits = rel.substr(8, slash == std::string::npos ? std::string::npos : slash - 8);
        if (!digits.empty() && digits.size() <= 6 && digits.find_first_not_of("0123456789") == std::string::npos
            && (n = std::stoul(digits)) < includeDirs_.size() && slash != std::string::npos)
            return (fs::path(includeDirs_[n]) / rel.substr(slash + 1)).generic_string();
    }
    return rel;
}

void CheckJobFolder::relativize(CompileResult& result) const
{
    for (Diagnostic& d : result.diagnostics)
        d.file = userPath(d.file);
    for (std::string& f : result.includedFiles)
        f = userPath(f);
}

} // namespace kw
