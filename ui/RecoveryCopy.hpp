#pragma once
// The recovery copy of unsaved work: a self-contained document in the application's
// data folder, with the path of the file it was made from beside it.
#include "doc/Document.hpp"

#include <QString>

namespace kw {

class RecoveryCopy {
public:
    static QString file();
    static bool exists();
    // Writes doc (its source inline) and the path it came from; throws on failure.
    static void write(const Document& doc, const QString& originPath);
    // The file the copy was made from; empty for an untitled document.
    static QString origin();
    // The copy parsed under its original path, so files it names resolve beside it; throws.
    static Document read();
    static void remove();
};

} // namespace kw
