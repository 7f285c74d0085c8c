#pragma once
// A document and everything it needs written into a folder of its own, for a child
// `kwb-run run` to read as a file (SanitizedRun): the source inline, the headers it
// includes at their paths relative to the document (as JobCodec::encode ships them
// to a runner), and the data of each file initialiser (from the disk, or from the
// job that brought it) as an .npy file. The child's document launches once: no
// warm-up, no timed repeats, compiled with -lineinfo. The folder goes with the object.
#include "compile/CompileResult.hpp"
#include "doc/Document.hpp"

#include <filesystem>
#include <string>

namespace kw {

class CheckJobFolder {
public:
    // Writes the folder under `parent` (created if missing). `launchLimitSeconds` is
    // the child's run.time_limit_s. Throws kw::Error as JobCodec::encode does for a
    // document whose files cannot be read or may not be (untrusted), kw::Error(Io)
    // when the folder cannot be written.
    CheckJobFolder(const Document& doc, const std::filesystem::path& parent, double launchLimitSeconds);
    ~CheckJobFolder();
    CheckJobFolder(const CheckJobFolder&) = delete;
    CheckJobFolder& operator=(const CheckJobFolder&) = delete;

    const std::filesystem::path& folder() const { return folder_; }
    std::filesystem::path documentFile() const { return folder_ / "document.kwb"; }

    // A path as the child's compiler (and compute-sanitizer) names it, as the user
    // knows it: the source as the document names it, a header relative to the
    // document or in the include folder the document gives.
    std::string userPath(const std::string& childPath) const;
    // userPath() for every file a compile result names.
    void relativize(CompileResult& result) const;

private:
    std::filesystem::path folder_;
    std::string sourceName_;               // the document's name for its source
    std::vector<std::string> includeDirs_; // as the document gives them
};

} // namespace kw
