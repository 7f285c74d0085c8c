#include "doc/TrustManifest.hpp"

#include "compile/Compiler.hpp"
#include "compile/IncludeGate.hpp"
#include "doc/DocumentRequests.hpp"
#include "util/ConfinedFolder.hpp"

#include <algorithm>
#include <set>

namespace kw {

namespace fs = std::filesystem;

namespace {

std::string relativeTo(const fs::path& p, const fs::path& root)
{
    std::error_code ec;
    const fs::path r = fs::relative(p, fs::weakly_canonical(root, ec), ec);
    return ec || r.empty() ? p.generic_string() : r.generic_string();
}

} // namespace

std::vector<BroughtFile> TrustManifest::filesOf(const Document& doc)
{
    std::vector<BroughtFile> files;
    const fs::path root = doc.baseDir();
    if (root.empty())
        return files;
    const ConfinedFolder folder(root);
    std::set<fs::path> seen;
    auto add = [&](const std::string& role, const fs::path& written) {
        const auto r = folder.resolveFile(written);
        if (r.status == ConfinedFolder::Status::Inside && seen.insert(r.path).second)
            files.push_back({role, r.path, relativeTo(r.path, root)});
    };
    if (!doc.sourceFile.empty())
        add("source_file", doc.sourceFile);
    for (const DocumentRequest& q : documentRequests(doc))
        if (q.kind == DocumentRequest::Kind::File && q.field != "source_file" && q.field.rfind("line ", 0) != 0
            && q.field.rfind("options.", 0) != 0)
            add(q.field, q.value);
    // Every header the walk reaches, past includes the gate refuses (the trust bar lists
    // those from documentRequests()).
    const std::string sourceName = doc.sourceName();
    try {
        const AdmittedIncludes included
            = IncludeGate(folder, {}, Compiler::installedIncludeDirs()).admitAll(doc.source, sourceName);
        for (const IncludedFile& f : included.files)
            add("#include \"" + f.spelled + "\"", f.path);
    } catch (const std::exception&) {
        // A folder that cannot be read: the files found so far are the record.
    }
    std::sort(files.begin(), files.end(),
              [](const BroughtFile& a, const BroughtFile& b) { return a.shownAs < b.shownAs; });
    return files;
}

} // namespace kw
