#pragma once

namespace kw {

// How far a document's own requests are followed. A document from elsewhere is
// untrusted: its compile options come from an allow-list and every file it names
// must lie inside its folder or the installed headers. The user's own documents
// (and anything run with `--trust`) are taken as they are.
enum class Trust { Untrusted, Trusted };

} // namespace kw
