#include "util/ConfinedFolder.hpp"

#include <algorithm>

namespace kw {

namespace fs = std::filesystem;

namespace {

bool isWithin(const fs::path& p, const fs::path& folder)
{
    auto [fi, pi] = std::mismatch(folder.begin(), folder.end(), p.begin(), p.end());
    // A trailing separator gives an empty last component.
    return fi == folder.end() || (std::next(fi) == folder.end() && fi->empty());
}

void addFolder(const fs::path& folder, std::vector<fs::path>& asWritten, std::vector<fs::path>& canonical)
{
    if (folder.empty())
        return;
    std::error_code ec;
    const fs::path absolute = fs::absolute(folder, ec);
    if (ec)
        return;
    asWritten.push_back(absolute.lexically_normal());
    const fs::path c = fs::canonical(absolute, ec);
    if (!ec)
        canonical.push_back(c);
}

} // namespace

ConfinedFolder::ConfinedFolder(fs::path root, std::vector<fs::path> alsoReadable)
{
    std::error_code ec;
    if (!root.empty())
        root_ = fs::absolute(root, ec).lexically_normal();
    addFolder(root_, asWritten_, canonical_);
    for (const auto& f : alsoReadable)
        addFolder(f, asWritten_, canonical_);
}

bool ConfinedFolder::staysInside(const fs::path& p)
{
    if (p.empty() || p.has_root_name() || p.has_root_directory())
        return false;
    int depth = 0;
    for (const auto& part : p) {
        if (part == "..")
            --depth;
        else if (!part.empty() && part != ".")
            ++depth;
        if (depth < 0)
            return false;
    }
    return true;
}

const char* ConfinedFolder::explain(Status status)
{
    switch (status) {
    case Status::Inside: return "is inside the document's folder";
    case Status::Outside: return "lies outside the document's folder";
    case Status::Missing: return "not found in the document's folder";
    case Status::NotRegular: return "is not a regular file";
    }
    return "";
}

bool ConfinedFolder::lexicallyAllowed(const fs::path& normal) const
{
    return std::any_of(asWritten_.begin(), asWritten_.end(), [&](const fs::path& f) { return isWithin(normal, f); })
        || std::any_of(canonical_.begin(), canonical_.end(), [&](const fs::path& f) { return isWithin(normal, f); });
}

bool ConfinedFolder::canonicallyAllowed(const fs::path& canonical) const
{
    return std::any_of(canonical_.begin(), canonical_.end(), [&](const fs::path& f) { return isWithin(canonical, f); });
}

ConfinedFolder::Resolved ConfinedFolder::resolve(const fs::path& p, const fs::path& base, bool folder) const
{
    if (p.empty())
        return {Status::Missing, {}};
    std::error_code ec;
    fs::path full = p;
    // Only a path without a root is the document's to place: on Windows "/etc/x" and
    // "C:x" are relative to a drive, never to the document's folder.
    if (!p.has_root_name() && !p.has_root_directory()) {
        if (base.empty())
            return {Status::Missing, {}}; // an unsaved document has no folder of its own
        full = fs::absolute(base / p, ec);
        if (ec)
            return {Status::Outside, {}};
    }
    const fs::path normal = full.lexically_normal();
    // Judged as written first: a path that leaves the folders is never looked at.
    if (!lexicallyAllowed(normal))
        return {Status::Outside, {}};
    const fs::path canonical = fs::canonical(normal, ec);
    if (ec)
        return {Status::Missing, {}};
    if (!canonicallyAllowed(canonical))
        return {Status::Outside, {}}; // a symbolic link that leads out
    const fs::file_status st = fs::status(canonical, ec);
    if (ec)
        return {Status::Missing, {}};
    if (folder ? !fs::is_directory(st) : !fs::is_regular_file(st))
        return {Status::NotRegular, {}};
    return {Status::Inside, canonical};
}

ConfinedFolder::Resolved ConfinedFolder::resolveFile(const fs::path& p) const { return resolve(p, root_, false); }

ConfinedFolder::Resolved ConfinedFolder::resolveFile(const fs::path& p, const fs::path& base) const
{
    return resolve(p, base, false);
}

ConfinedFolder::Resolved ConfinedFolder::resolveFolder(const fs::path& p) const { return resolve(p, root_, true); }

} // namespace kw
