#pragma once
// Every file a document brings beside its own bytes, so that trusting a document trusts
// exactly these files: its source_file, the headers its source includes (nested, found
// as the include gate finds them), its initialisers' data files and its description's
// images. Swapping any of them makes the document a stranger again (the window keeps
// each file's hash with the trust record and names what changed).
#include "doc/Document.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kw {

struct BroughtFile {
    std::string role;           // "source_file", "#include \"helper.h\"", "buffers[0].init.path", "description image"
    std::filesystem::path path; // canonical; empty when the file is missing or outside the folder
    std::string shownAs;        // relative to the document's folder, as listed to the user
};

class TrustManifest {
public:
    // The files of `doc` (loaded from doc.path) that exist inside its folder, each once,
    // sorted by shownAs. Files outside the folder are not read; the trust bar lists them
    // from documentRequests(). The walk of the includes goes on past those the gate
    // refuses. Never throws.
    static std::vector<BroughtFile> filesOf(const Document& doc);
};

} // namespace kw
