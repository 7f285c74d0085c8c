#pragma once
// The folders an untrusted document may read: its own folder and the installed
// headers. Paths are judged twice: as written (so nothing outside is even looked
// at, and a refusal discloses nothing about the file) and after following
// symbolic links (so a link inside the folder that leads out of it is outside).
#include <filesystem>
#include <vector>

namespace kw {

class ConfinedFolder {
public:
    enum class Status { Inside, Outside, Missing, NotRegular };
    struct Resolved {
        Status status;
        std::filesystem::path path; // canonical, when Inside
    };

    // `root` is the document's folder (empty: an unsaved document, which may read
    // nothing of its own); `alsoReadable` are folders such as the installed headers.
    explicit ConfinedFolder(std::filesystem::path root, std::vector<std::filesystem::path> alsoReadable = {});

    // Resolves `p` (relative paths against `base`, by default the root) to a
    // regular file inside the allowed folders.
    Resolved resolveFile(const std::filesystem::path& p) const;
    Resolved resolveFile(const std::filesystem::path& p, const std::filesystem::path& base) const;
    // The same for a folder (include folders).
    Resolved resolveFolder(const std::filesystem::path& p) const;

    const std::filesystem::path& root() const { return root_; }

    // True for a relative path that does not climb out of its folder ("a/../b" does
    // not; "../b" and "/b" do), judged as written. The one rule for every path a
    // document or a job names: the include gate, the initialiser files, and the files
    // a job (JobCodec) or a check job (CheckJobFolder) writes into its folder.
    static bool staysInside(const std::filesystem::path& p);

    // Message fragments with one wording everywhere.
    static const char* explain(Status status);

private:
    Resolved resolve(const std::filesystem::path& p, const std::filesystem::path& base, bool folder) const;
    bool lexicallyAllowed(const std::filesystem::path& normal) const;
    bool canonicallyAllowed(const std::filesystem::path& canonical) const;

    std::filesystem::path root_;
    std::vector<std::filesystem::path> asWritten_; // absolute, lexically normal
    std::vector<std::filesystem::path> canonical_;
};

} // namespace kw
