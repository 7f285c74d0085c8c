#include "run/PreparedRunCache.hpp"

#include "compile/ContentHash.hpp"
#include "doc/DocumentWriter.hpp"

#include <algorithm>
#include <filesystem>

namespace kw {

namespace {

std::size_t totalBytes(const PreparedRun& run)
{
    std::size_t bytes = 0;
    for (const auto& b : run.buffers)
        bytes += b.data.byteSize();
    return bytes;
}

// Worth keeping: a run with a buffer generated from its initialiser (random numbers, an
// expression, a fill). A job whose data all came with it (attached files, besides zeros
// and copies) is prepared from its attachments again: they arrive with every job, so a
// kept copy would save no work and cost a copy and a hash of every byte.
bool worthKeeping(const Document& doc)
{
    return !doc.attachedFiles || std::any_of(doc.buffers.begin(), doc.buffers.end(), [](const BufferSpec& b) {
        return b.init.kind != Initialiser::Kind::File && b.init.kind != Initialiser::Kind::Zeros
            && b.init.kind != Initialiser::Kind::Copy;
    });
}

// Size and modification time of each input file, so an edited file is read again.
std::string fileStamps(const Document& doc)
{
    std::string stamps;
    for (const auto& b : doc.buffers) {
        if (b.init.kind != Initialiser::Kind::File)
            continue;
        if (doc.attachedFiles) {
            // Data sent with a job: its contents are its stamp.
            auto it = doc.attachedFiles->find(b.init.file);
            // A reference, never a copy of the data.
            static const HostBytes none;
            const HostBytes& bytes = it == doc.attachedFiles->end() ? none : it->second.data.bytes();
            stamps += b.init.file + ":attached:" + std::to_string(bytes.size()) + ":"
                + std::to_string(contentHash({reinterpret_cast<const char*>(bytes.data()), bytes.size()})) + ";";
            continue;
        }
        const auto path = doc.baseDir() / b.init.file;
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        const auto time = std::filesystem::last_write_time(path, ec);
        stamps += path.string() + ":" + std::to_string(ec ? 0 : size) + ":"
            + std::to_string(ec ? 0 : time.time_since_epoch().count()) + ";";
    }
    return stamps;
}

} // namespace

PreparedRunCache::PreparedRunCache(std::size_t maxBytes)
    : maxBytes_(maxBytes)
{
}

std::string PreparedRunCache::keyOf(const Document& doc)
{
    auto j = DocumentWriter::toJson(doc);
    // The source and its compile options do not change the inputs.
    for (const char* field : {"title", "description", "source", "source_file", "options"})
        j.erase(field);
    return j.dump() + "\n" + doc.baseDir().string() + "\n" + fileStamps(doc);
}

PreparedRun PreparedRunCache::prepare(const Document& doc)
{
    if (!worthKeeping(doc)) {
        {
            std::lock_guard lock(mutex_);
            lastHit_ = false;
        }
        return PreparedRun::fromDocument(doc);
    }
    const std::string key = keyOf(doc);
    {
        std::lock_guard lock(mutex_);
        lastHit_ = run_ && key == key_;
        if (lastHit_)
            return *run_;
    }
    PreparedRun fresh = PreparedRun::fromDocument(doc);
    std::lock_guard lock(mutex_);
    if (totalBytes(fresh) <= maxBytes_) {
        key_ = key;
        run_ = fresh;
    } else {
        run_.reset();
    }
    return fresh;
}

bool PreparedRunCache::lastWasHit() const
{
    std::lock_guard lock(mutex_);
    return lastHit_;
}

} // namespace kw
