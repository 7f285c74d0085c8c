#pragma once
// The encoding an exercise's reference may be kept in ("source_sealed"): Base64 of the
// text. It keeps the reference out of casual view (a glance at the file, a search for a
// kernel's name); anyone who decodes Base64 reads it, and the docs say so.
#include <string>

namespace kw::grade {

class SealedText {
public:
    static std::string seal(const std::string& text);
    // Throws kw::Error(Document) naming `field` when `sealed` is not Base64.
    static std::string open(const std::string& sealed, const std::string& field);
};

} // namespace kw::grade
