#pragma once
// "1 error", "2 errors": a count with its noun in the singular or the plural. Qt's
// "%n error(s)" says "1 error(s)" unless a translation file gives the plural forms.
#include <QString>

namespace kw {

// `many` holds %1 for the count: countedNoun(n, "1 error", "%1 errors").
inline QString countedNoun(int n, const QString& one, const QString& many) { return n == 1 ? one : many.arg(n); }

} // namespace kw
