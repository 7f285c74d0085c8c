#pragma once
// Remembers the last prepared run, so an edit-and-rerun that changes only the
// source reuses the generated inputs instead of building them again.
#include "doc/Document.hpp"
#include "doc/PreparedRun.hpp"

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>

namespace kw {

class PreparedRunCache {
public:
    // Runs whose buffers together exceed `maxBytes` are not kept.
    explicit PreparedRunCache(std::size_t maxBytes = std::size_t(1) << 30);

    // A copy of the prepared run for `doc`: from the cache when everything it is
    // built from (variables, buffers, arguments, launch, run settings, checks,
    // the stamps of input files) is unchanged, else freshly prepared. A job whose data all
    // came with it (a remote job's attached files, zeros, copies) is prepared and not kept.
    PreparedRun prepare(const Document& doc);
    bool lastWasHit() const;

    // Everything a prepared run is built from, as text.
    static std::string keyOf(const Document& doc);

private:
    std::size_t maxBytes_;
    mutable std::mutex mutex_;
    std::string key_;
    std::optional<PreparedRun> run_;
    bool lastHit_ = false;
};

} // namespace kw
