#pragma once
// What a document asks of the machine beyond running its kernel: compile options
// that differ from the defaults and every file it names. The window shows these
// before the user trusts a document from elsewhere.
#include "doc/Document.hpp"

#include <string>
#include <vector>

namespace kw {

struct DocumentRequest {
    enum class Kind { Option, File };
    Kind kind;
    std::string field; // "options.extra[0]", "source_file", "buffers[2].init.path", "#include"
    std::string value; // the option or the path as written
};

std::vector<DocumentRequest> documentRequests(const Document& doc);

} // namespace kw
