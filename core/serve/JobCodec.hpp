#pragma once
// A compile or run job as it travels to a runner that may not share the client's
// file system: the document with its source inline, the user headers it includes
// (text, by path relative to the document) and the data of its file-initialised
// buffers (read on the client, sent back to back in the message's binary payload).
#include "compile/CompileResult.hpp"
#include "doc/Document.hpp"
#include "serve/MessageChannel.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

struct EncodedJob {
    nlohmann::json header; // the request; "binary" is added on the wire
    HostBytes payload;     // initialiser data, in the order of header["files"]
};

class JobCodec {
public:
    // Client side. Reads includes and initialiser files on this machine; throws
    // kw::Error(Document) naming the buffer when a file cannot be read.
    static EncodedJob encode(const Document& doc, std::string_view op, const nlohmann::json& id,
                             const std::string& device);

    // Runner side: the request's document. A job with "includes"/"files" gets its
    // own folder under `jobsRoot` holding only the headers it brought, and its
    // initialisers come from the payload, never from this disk. A request without
    // them (a local client) is resolved against its "base_dir" as in version 1.
    static Document decode(const Message& request, const std::filesystem::path& jobsRoot);
    // The same, taking the request's payload: the file that begins it becomes its buffer's
    // data without a copy (the others are copied out first); request.binary is left empty.
    static Document decodeTakingPayload(Message& request, const std::filesystem::path& jobsRoot);
    // The payload a decoded request brought, from its header and the document's
    // attached files (for a request served again after decode took its payload).
    static HostBytes payloadOf(const nlohmann::json& header, const Document& doc);

    // Paths inside a job folder, as the client knows them (relative to its document).
    static void relativize(CompileResult& result, const std::filesystem::path& jobFolder);

    // The folder for jobs under a cache folder: <cache>/jobs.
    static std::filesystem::path jobsRootIn(const std::filesystem::path& cacheDir);

private:
    // `takeable` is the request's own payload when decode may take it, else null.
    static Document decode(const nlohmann::json& header, const HostBytes& payload, HostBytes* takeable,
                           const std::filesystem::path& jobsRoot);
};

} // namespace kw
