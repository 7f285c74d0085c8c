#include "serve/JobCodec.hpp"

#include "compile/Compiler.hpp"
#include "compile/ContentHash.hpp"
#include "compile/IncludeGate.hpp"
#include "compile/IncludeScanner.hpp"
#include "compile/OptionAllowList.hpp"
#include "data/DType.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DocumentReader.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/DocumentWriter.hpp"
#include "doc/VariableScope.hpp"
#include "serve/Protocol.hpp"
#include "util/ConfinedFolder.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>

namespace kw {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// `path` relative to `dir` when it lies inside it, else empty.
fs::path inside(const fs::path& path, const fs::path& dir)
{
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(path, ec);
    const fs::path d = fs::weakly_canonical(dir, ec);
    const fs::path rel = p.lexically_relative(d);
    if (rel.empty() || *rel.begin() == "..")
        return {};
    return rel;
}

// The buffer's element count, for refusing a far larger file unread; when the
// count cannot be evaluated here, the runner's validator reports it.
std::size_t elementsOf(const Document& doc, const BufferSpec& spec)
{
    constexpr std::size_t kMostElements = std::size_t(1) << 40;
    try {
        const std::int64_t n = VariableScope::evaluate(doc.variables).evaluateInteger(spec.count, "count");
        return n > 0 && std::size_t(n) < kMostElements ? std::size_t(n) : kMostElements;
    } catch (const std::exception&) {
        return kMostElements;
    }
}

std::string hex(std::uint64_t v)
{
    static const char* digits = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
        s[std::size_t(i)] = digits[v & 15];
    return s;
}

// The client's name for a source that travelled inline ("source_name"): compiled under
// it, the profile's lines and the diagnostics name the file the client shows. A name that
// is not a relative path inside the document's folder is refused.
std::string sourceNameOf(const json& request)
{
    const auto it = request.find("source_name");
    if (it == request.end())
        return {};
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
        throw Error(ErrorCategory::Protocol, "\"source_name\" must be a non-empty string");
    const std::string& name = it->get_ref<const std::string&>();
    const fs::path p = fs::path(name).lexically_normal();
    if (p.is_absolute() || !ConfinedFolder::staysInside(p))
        throw Error(ErrorCategory::Protocol, "source_name \"" + name + "\" is not a path inside the document's folder");
    return name;
}

} // namespace

fs::path JobCodec::jobsRootIn(const fs::path& cacheDir) { return cacheDir / "jobs"; }

EncodedJob JobCodec::encode(const Document& doc, std::string_view op, const json& id, const std::string& device)
{
    std::error_code ec;
    const fs::path base = doc.path.empty() ? fs::path() : fs::absolute(doc.path, ec).parent_path();
    Document sent = doc;
    sent.sourceFile.clear(); // the source travels inline, under its name ("source_name")
    // A document from elsewhere is confined here, where its files are read, by the
    // rules the compiler applies (docs/document-format.md, "Documents from elsewhere").
    const bool trusted = doc.trust == Trust::Trusted;
    if (!trusted)
        OptionAllowList::check(doc.options);
    const ConfinedFolder folder(base, Compiler::installedIncludeDirs());

    // Include folders outside the document's folder travel as "_include<N>".
    std::vector<std::pair<fs::path, fs::path>> dirs; // local folder, its name in the job
    if (!base.empty())
        dirs.emplace_back(base, fs::path());
    std::vector<fs::path> search = base.empty() ? std::vector<fs::path>() : std::vector<fs::path>{base};
    for (std::size_t k = 0; k < doc.options.includeDirs.size(); ++k) {
        fs::path d(doc.options.includeDirs[k]);
        if (d.is_relative() && !base.empty())
            d = base / d;
        if (!trusted) {
            const auto r = folder.resolveFolder(doc.options.includeDirs[k]);
            if (r.status != ConfinedFolder::Status::Inside)
                throw Error(ErrorCategory::Untrusted,
                            "options.include_dirs[" + std::to_string(k) + "]: \"" + doc.options.includeDirs[k] + "\" "
                                + ConfinedFolder::explain(r.status));
            d = r.path;
        }
        search.push_back(d);
        if (!base.empty() && !inside(d, base).empty())
            continue; // its files are found under the document's folder
        const std::string mapped = "_include" + std::to_string(k);
        dirs.emplace_back(d, fs::path(mapped));
        sent.options.includeDirs[k] = mapped;
    }

    json includes = json::array();
    std::set<std::string> seen;
    const std::vector<IncludedFile> found = trusted
        ? scanIncludes(doc.source, search)
        : IncludeGate(folder, std::vector<fs::path>(search.begin() + (base.empty() ? 0 : 1), search.end()),
                      Compiler::installedIncludeDirs())
              .admit(doc.source, doc.sourceName())
              .files;
    for (const IncludedFile& inc : found) {
        if (inc.path.empty())
            continue;
        for (const auto& [local, mapped] : dirs) {
            const fs::path rel = inside(inc.path, local);
            if (rel.empty())
                continue;
            const std::string name = (mapped / rel).generic_string();
            if (seen.insert(name).second)
                includes.push_back({{"path", name}, {"text", inc.contents}});
            break;
        }
    }

    EncodedJob job;
    json files = json::array();
    std::set<std::string> sentFiles;
    for (std::size_t b = 0; b < doc.buffers.size(); ++b) {
        const BufferSpec& spec = doc.buffers[b];
        if (spec.init.kind != Initialiser::Kind::File || spec.init.file.empty()
            || !sentFiles.insert(spec.init.file).second)
            continue;
        fs::path path = fs::path(spec.init.file).is_absolute() ? fs::path(spec.init.file) : base / spec.init.file;
        if (!trusted) {
            const auto r = folder.resolveFile(spec.init.file);
            if (r.status == ConfinedFolder::Status::Outside)
                throw Error(ErrorCategory::Untrusted,
                            "buffers[" + std::to_string(b) + "].init.path: \"" + spec.init.file + "\" "
                                + ConfinedFolder::explain(r.status));
            if (r.status == ConfinedFolder::Status::Inside)
                path = r.path;
        }
        if (!fs::is_regular_file(path, ec))
            throw Error(ErrorCategory::Document,
                        "buffers[" + std::to_string(b) + "].init.path: file \"" + spec.init.file
                            + "\" not found (looked for " + path.string() + ")");
        NdArray a;
        try {
            a = BufferFactory::readFile(path, spec.dtype, elementsOf(doc, spec));
        } catch (const Error& e) {
            throw Error(ErrorCategory::Document, "buffers[" + std::to_string(b) + "].init.path: " + e.what());
        }
        files.push_back({{"file", spec.init.file},
                         {"dtype", toString(a.data.dtype())},
                         {"count", a.data.count()},
                         {"shape", a.shape},
                         {"offset", job.payload.size()},
                         {"bytes", a.data.byteSize()}});
        if (job.payload.empty()) // the first file's bytes are the payload: moved, not copied
            job.payload = std::move(a.data.bytes());
        else
            job.payload.insert(job.payload.end(), a.data.bytes().begin(), a.data.bytes().end());
    }

    job.header = protocol::request(id, op);
    job.header["document"] = DocumentWriter::toJson(sent);
    job.header["includes"] = std::move(includes);
    job.header["files"] = std::move(files);
    job.header["trust"] = trusted;
    if (!doc.sourceFile.empty())
        job.header["source_name"] = doc.sourceFile;
    if (!device.empty())
        job.header["device"] = device;
    return job;
}

Document JobCodec::decode(const Message& request, const fs::path& jobsRoot)
{
    return decode(request.header, request.binary, nullptr, jobsRoot);
}

Document JobCodec::decodeTakingPayload(Message& request, const fs::path& jobsRoot)
{
    return decode(request.header, request.binary, &request.binary, jobsRoot);
}

HostBytes JobCodec::payloadOf(const json& header, const Document& doc)
{
    // As long as the request said ("binary", once on the wire), else up to its last file's end.
    const json files = header.value("files", json::array());
    std::size_t size = std::size_t(MessageChannel::payloadBytes(header));
    if (files.is_array())
        for (const json& f : files)
            if (f.is_object())
                size = std::max(size, f.value("offset", std::size_t(0)) + f.value("bytes", std::size_t(0)));
    HostBytes payload(size, std::byte{0});
    if (!doc.attachedFiles || !files.is_array())
        return payload;
    for (const json& f : files) {
        if (!f.is_object())
            continue;
        const auto it = doc.attachedFiles->find(f.value("file", std::string()));
        const std::size_t offset = f.value("offset", std::size_t(0));
        if (it != doc.attachedFiles->end() && it->second.data.byteSize() <= payload.size() - offset
            && it->second.data.byteSize())
            std::memcpy(payload.data() + offset, it->second.data.data(), it->second.data.byteSize());
    }
    return payload;
}

Document JobCodec::decode(const json& h, const HostBytes& binary, HostBytes* takeable, const fs::path& jobsRoot)
{
    auto it = h.find("document");
    if (it == h.end())
        throw Error(ErrorCategory::Protocol, "request has no \"document\"");
    const std::string text = it->is_string() ? it->get<std::string>() : it->dump();
    // The client says whether its user trusts the document; otherwise it is confined.
    const auto t = h.find("trust");
    const Trust trust = t != h.end() && t->is_boolean() && t->get<bool>() ? Trust::Trusted : Trust::Untrusted;

    if (!h.contains("includes") && !h.contains("files")) {
        // A client on this machine: files are relative to its base_dir.
        fs::path where;
        if (auto b = h.find("base_dir"); b != h.end() && b->is_string() && !b->get<std::string>().empty())
            where = fs::path(b->get<std::string>()) / "document.kwb";
        Document doc = DocumentReader::readString(text, where, trust);
        doc.sourceFile = sourceNameOf(h);
        return doc;
    }

    // The job's own folder, named by its headers' contents, so a job sent again
    // finds its folder in place and the compiler cache its key.
    const json includes = h.value("includes", json::array());
    if (!includes.is_array())
        throw Error(ErrorCategory::Protocol, "\"includes\" must be an array");
    std::string all;
    for (const json& inc : includes) {
        if (!inc.is_object() || !inc.value("path", json()).is_string() || !inc.value("text", json()).is_string())
            throw Error(ErrorCategory::Protocol, "each of \"includes\" needs \"path\" and \"text\" strings");
        all += inc["path"].get<std::string>() + '\0' + inc["text"].get<std::string>() + '\0';
    }
    const fs::path folder = jobsRoot / (hex(contentHash(all, 1)) + hex(contentHash(all, 2)));
    for (const json& inc : includes) {
        const fs::path rel = fs::path(inc["path"].get<std::string>()).lexically_normal();
        if (!ConfinedFolder::staysInside(rel))
            throw Error(ErrorCategory::Protocol,
                        "include path \"" + inc["path"].get<std::string>() + "\" leaves the job's folder");
        const fs::path file = folder / rel;
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        const std::string& body = inc["text"].get_ref<const std::string&>();
        out.write(body.data(), std::streamsize(body.size()));
        if (!out)
            throw Error(ErrorCategory::Io, "cannot write the job's header " + file.string());
    }
    std::error_code ec;
    fs::create_directories(folder, ec);

    auto attached = std::make_shared<AttachedFiles>();
    const json files = h.value("files", json::array());
    if (!files.is_array())
        throw Error(ErrorCategory::Protocol, "\"files\" must be an array");
    // The file that begins the payload takes it whole once the others are copied out of it.
    const json* first = nullptr;
    for (const json& f : files) {
        const std::string name = f.value("file", std::string());
        const auto dtype = parseDType(f.value("dtype", std::string()));
        const std::size_t count = f.value("count", std::size_t(0));
        const std::size_t offset = f.value("offset", std::size_t(0));
        const std::size_t bytes = f.value("bytes", std::size_t(0));
        if (name.empty() || !dtype)
            throw Error(ErrorCategory::Protocol, "each of \"files\" needs \"file\" and a known \"dtype\"");
        if (count > SIZE_MAX / sizeOf(*dtype) || bytes != count * sizeOf(*dtype) || offset > binary.size()
            || bytes > binary.size() - offset)
            throw Error(ErrorCategory::Protocol,
                        "file \"" + name + "\": its " + std::to_string(bytes)
                            + " bytes do not fit the job's binary payload of " + std::to_string(binary.size())
                            + " bytes");
        const bool unique
            = std::count_if(files.begin(), files.end(),
                            [&](const json& o) { return o.is_object() && o.value("file", std::string()) == name; })
            == 1;
        if (takeable && offset == 0 && bytes > 0 && !first && unique) {
            first = &f;
            continue;
        }
        NdArray a;
        a.data = HostBuffer::uninitialised(*dtype, count); // bytes == count * size: written whole below
        if (bytes)
            std::memcpy(a.data.data(), binary.data() + offset, bytes);
        a.shape = f.value("shape", std::vector<std::size_t>{count});
        (*attached)[name] = std::move(a);
    }
    if (first) {
        HostBytes bytes = std::move(*takeable);
        bytes.resize(first->value("bytes", std::size_t(0))); // shorter: never reallocates
        const DType dtype = *parseDType(first->value("dtype", std::string()));
        NdArray a;
        a.shape = first->value("shape", std::vector<std::size_t>{bytes.size() / sizeOf(dtype)});
        a.data = HostBuffer(dtype, std::move(bytes));
        (*attached)[first->value("file", std::string())] = std::move(a);
    }

    // Validated with the attachments in place: the validator checks file initialisers against them.
    Document doc = DocumentReader::parse(text, folder / "document.kwb", trust);
    doc.attachedFiles = std::move(attached);
    DocumentValidator::validate(doc);
    doc.sourceFile = sourceNameOf(h);
    return doc;
}

void JobCodec::relativize(CompileResult& result, const fs::path& jobFolder)
{
    const std::string prefix = jobFolder.string() + "/";
    auto strip = [&](std::string& s) {
        if (s.rfind(prefix, 0) == 0)
            s.erase(0, prefix.size());
    };
    for (Diagnostic& d : result.diagnostics)
        strip(d.file);
    for (std::string& f : result.includedFiles)
        strip(f);
}

} // namespace kw
