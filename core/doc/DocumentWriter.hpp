#pragma once
// Writes a kw::Document as JSON that DocumentReader reads back to the same
// document: keys in a fixed order, two-space indentation.
#include "doc/Document.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace kw {

class DocumentWriter {
public:
    static nlohmann::ordered_json toJson(const Document& doc);
    static std::string toString(const Document& doc);
    // Writes through a temporary file and a rename, so a crash never leaves half a
    // document. A document with a source_file writes only the document, not the source.
    // Throws kw::Error(Io).
    static void writeFile(const Document& doc, const std::filesystem::path& path);
};

} // namespace kw
