#pragma once
// Compiled programs kept in memory (LRU) and on disk under
// kw::userCacheDir()/programs, so an unchanged kernel is not compiled twice.
// The disk part is bounded too: past its size limit, the entries used longest ago
// are removed (a hit counts as a use).
#include "compile/CompileResult.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace kw {

class ProgramCache {
public:
    static constexpr std::uintmax_t defaultDiskLimit = std::uintmax_t(512) << 20;

    // `dir` empty: memory only.
    explicit ProgramCache(std::filesystem::path dir, std::size_t memoryEntries = 64,
                          std::uintmax_t diskLimitBytes = defaultDiskLimit);
    // The user's cache folder; KWB_CACHE_MAX_MB sets its size limit (default 512).
    static std::shared_ptr<ProgramCache> openDefault();

    // `key` is the full key material (source, options, headers, versions); it is
    // stored in the entry and compared on load, so hash collisions are harmless.
    // A corrupt, truncated or foreign disk entry is ignored (and removed).
    std::optional<CompileResult> find(const std::string& key);
    // Failed compiles are kept in memory only.
    void store(const std::string& key, const CompileResult& result);

    // The entry file for a key (exists only once stored on disk).
    std::filesystem::path entryPath(const std::string& key) const;
    const std::filesystem::path& dir() const { return dir_; }
    void clearMemory();

    static std::string hashKey(const std::string& key); // 32 hex digits

private:
    struct Entry {
        std::string key;
        CompileResult result;
    };
    std::optional<CompileResult> loadFromDisk(const std::string& key);
    void saveToDisk(const std::string& key, const CompileResult& result);
    void trimDisk(const std::filesystem::path& keep);
    void remember(const std::string& hash, const std::string& key, const CompileResult& result);

    std::filesystem::path dir_;
    std::size_t capacity_;
    std::uintmax_t diskLimit_;
    std::mutex mutex_;
    std::list<std::pair<std::string, Entry>> lru_; // most recent first
    std::unordered_map<std::string, std::list<std::pair<std::string, Entry>>::iterator> index_;
};

} // namespace kw
