#pragma once
// The position of the element a per-element expression (an initialiser, a check) is
// evaluated for: i is the flat index, x, y and z the index within the last, second-last
// and third-last dimension. A name the document defines itself (a variable, a buffer,
// so also a kernel parameter's) shadows these; `_i`, `_x`, `_y` and `_z` always mean
// the position (docs/document-format.md, "Names").
#include "doc/Expression.hpp"

#include <cstddef>
#include <functional>
#include <string>

namespace kw {

class ElementIndex {
public:
    // Binds the names to this object's values; `isDocumentName` tells which the
    // document defines itself. The object must outlive the expression's evaluations.
    void bindIn(Expression& e, const std::function<bool(const std::string&)>& isDocumentName);

    // Element k of an array whose last dimension is w long and second-last h.
    void moveTo(std::size_t k, std::size_t w, std::size_t h)
    {
        i_ = double(k);
        x_ = double(k % w);
        y_ = double((k / w) % h);
        z_ = double(k / (w * h));
    }

private:
    double i_ = 0, x_ = 0, y_ = 0, z_ = 0;
};

} // namespace kw
