#include "compile/ProgramCache.hpp"

#include "compile/CompileResultCodec.hpp"
#include "compile/ContentHash.hpp"
#include "util/FileTime.hpp"
#include "util/Paths.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#ifdef _WIN32
#include <process.h>
#define KW_GETPID _getpid
#else
#include <unistd.h>
#define KW_GETPID getpid
#endif

namespace kw {

namespace fs = std::filesystem;

namespace {

// Entry file: magic, format version, key size, payload size, checksum of key and
// payload, key, payload. Anything else is not an entry.
constexpr char kMagic[8] = {'K', 'W', 'B', 'P', 'R', 'O', 'G', '\n'};
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 8 + 8;

void putU64(std::string& out, std::uint64_t v, int bytes = 8)
{
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::uint64_t getU64(std::string_view in, std::size_t at, int bytes = 8)
{
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= std::uint64_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
    return v;
}

std::string hex(std::uint64_t v)
{
    static const char* digits = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
        s[static_cast<std::size_t>(i)] = digits[v & 15];
    return s;
}

} // namespace

ProgramCache::ProgramCache(fs::path dir, std::size_t memoryEntries, std::uintmax_t diskLimitBytes)
    : dir_(std::move(dir))
    , capacity_(memoryEntries == 0 ? 1 : memoryEntries)
    , diskLimit_(diskLimitBytes)
{
}

std::shared_ptr<ProgramCache> ProgramCache::openDefault()
{
    std::uintmax_t limit = defaultDiskLimit;
    if (const char* mb = std::getenv("KWB_CACHE_MAX_MB"); mb && *mb) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(mb, &end, 10);
        if (end && *end == '\0')
            limit = std::uintmax_t(v) << 20;
    }
    return std::make_shared<ProgramCache>(userCacheDir() / "programs", 64, limit);
}

std::string ProgramCache::hashKey(const std::string& key)
{
    return hex(contentHash(key, 1)) + hex(contentHash(key, 2));
}

fs::path ProgramCache::entryPath(const std::string& key) const
{
    return dir_.empty() ? fs::path() : dir_ / (hashKey(key) + ".kwbprog");
}

std::optional<CompileResult> ProgramCache::find(const std::string& key)
{
    std::string hash = hashKey(key);
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(hash); it != index_.end() && it->second->second.key == key) {
        lru_.splice(lru_.begin(), lru_, it->second);
        return it->second->second.result;
    }
    auto loaded = loadFromDisk(key);
    if (loaded)
        remember(hash, key, *loaded);
    return loaded;
}

void ProgramCache::store(const std::string& key, const CompileResult& result)
{
    std::lock_guard lock(mutex_);
    remember(hashKey(key), key, result);
    if (result.ok)
        saveToDisk(key, result);
}

void ProgramCache::clearMemory()
{
    std::lock_guard lock(mutex_);
    lru_.clear();
    index_.clear();
}

void ProgramCache::remember(const std::string& hash, const std::string& key, const CompileResult& result)
{
    if (auto it = index_.find(hash); it != index_.end()) {
        lru_.erase(it->second);
        index_.erase(it);
    }
    lru_.emplace_front(hash, Entry{key, result});
    index_[hash] = lru_.begin();
    while (lru_.size() > capacity_) {
        index_.erase(lru_.back().first);
        lru_.pop_back();
    }
}

std::optional<CompileResult> ProgramCache::loadFromDisk(const std::string& key)
{
    if (dir_.empty())
        return std::nullopt;
    fs::path path = entryPath(key);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();

    auto reject = [&] {
        // Never load it; the next successful compile writes a good entry in its place.
        std::error_code ec;
        fs::remove(path, ec);
        return std::nullopt;
    };
    std::string_view b = bytes;
    if (b.size() < kHeaderSize || b.substr(0, 8) != std::string_view(kMagic, 8) || getU64(b, 8, 4) != kFormatVersion)
        return reject();
    std::uint64_t keySize = getU64(b, 12), payloadSize = getU64(b, 20), checksum = getU64(b, 28);
    if (keySize > b.size() || payloadSize > b.size() || kHeaderSize + keySize + payloadSize != b.size())
        return reject();
    std::string_view body = b.substr(kHeaderSize);
    if (contentHash(body) != checksum || body.substr(0, keySize) != key)
        return reject();
    CompileResult r;
    if (!decodeCompileResult(body.substr(keySize), r))
        return reject();
    // A hit is a use: the size limit removes the entries used longest ago.
    setModifiedNow(path);
    return r;
}

void ProgramCache::saveToDisk(const std::string& key, const CompileResult& result)
{
    if (dir_.empty())
        return;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    std::string payload = encodeCompileResult(result);
    std::string body = key + payload;
    std::string header(kMagic, 8);
    putU64(header, kFormatVersion, 4);
    putU64(header, key.size());
    putU64(header, payload.size());
    putU64(header, contentHash(body));

    static std::atomic<unsigned> counter{0};
    fs::path final = entryPath(key);
    fs::path temp = final;
    temp += ".tmp." + std::to_string(KW_GETPID()) + "." + std::to_string(counter++);
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
            return; // an unwritable cache only costs speed
        out.write(header.data(), static_cast<std::streamsize>(header.size()));
        out.write(body.data(), static_cast<std::streamsize>(body.size()));
        if (!out.flush()) {
            out.close();
            fs::remove(temp, ec);
            return;
        }
    }
    fs::rename(temp, final, ec);
    if (ec) {
        fs::remove(temp, ec);
        return;
    }
    trimDisk(final);
}

void ProgramCache::trimDisk(const fs::path& keep)
{
    struct File {
        fs::path path;
        std::uintmax_t size;
        std::int64_t used;
    };
    std::vector<File> files;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".kwbprog")
            continue;
        std::error_code fileEc;
        const std::uintmax_t size = it->file_size(fileEc);
        const auto used = modificationTicks(it->path());
        if (fileEc || !used)
            continue;
        files.push_back({it->path(), size, *used});
        total += size;
    }
    if (total <= diskLimit_)
        return;
    // Down to three quarters of the limit, so the next few stores do not trim again.
    const std::uintmax_t target = diskLimit_ / 4 * 3;
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.used < b.used; });
    for (const File& f : files) {
        if (total <= target)
            break;
        if (f.path == keep)
            continue;
        if (fs::remove(f.path, ec))
            total -= f.size;
    }
}

} // namespace kw
