#pragma once
// Loads a workbench document (*.kwb, JSON) into a kw::Document and validates it
// (see docs/document-format.md).
#include "doc/Document.hpp"
#include "util/Trust.hpp"

#include <filesystem>
#include <string>

namespace kw {

class DocumentReader {
public:
    // Every failure is one kw::Error(Document) naming the field and why
    // (a file that cannot be read is kw::Error(Io)).
    // An untrusted document's source_file and init files must lie inside its
    // folder (kw::Error(Untrusted) otherwise); see util/Trust.hpp.
    static Document readFile(const std::filesystem::path& path, Trust trust = Trust::Untrusted);
    // `path` is where the document lives (source_file and init files are relative
    // to its folder); it may be empty for an unsaved document.
    static Document readString(const std::string& json, const std::filesystem::path& path = {},
                               Trust trust = Trust::Untrusted);

    // Like readString without DocumentValidator: only the JSON's shape is checked.
    // For editors that must open a document the validator refuses.
    static Document parse(const std::string& json, const std::filesystem::path& path = {},
                          Trust trust = Trust::Untrusted);

    static constexpr int kVersion = 2; // 2: documents of several steps
};

} // namespace kw
