#pragma once
// A document's check as code of an exported program: `expect` (and an aggregate's
// `of`) per element k, with the names doc/CheckEvaluator gives it: every buffer by name
// (element k, after the run) and as a function name(j), `name_in` for the contents
// before the run, the variables and scalar arguments, and the element's position
// i, x, y, z (and _i, _x, _y, _z), the document's own names first.
#include "export/ExportPlan.hpp"
#include "export/ExpressionTranslation.hpp"

#include <map>
#include <string>
#include <vector>

namespace kw::exporting {

struct CheckExpression {
    std::string code;                 // a double, for element k
    std::vector<std::string> buffers; // buffers read after the run (Python: B[name]; C++: b_<id>)
    std::vector<std::string> initial; // buffers read before it (Python: I[name]; C++: i_<id>)
};

class CheckCode {
public:
    // `loops`: pass numbers of the loops around the check (index name -> variable).
    CheckCode(const ExportPlan& plan, Language language, std::map<std::string, std::string> loops = {});
    CheckExpression translate(const std::string& text, const std::string& field) const;

private:
    const ExportPlan& plan_;
    Language language_;
    std::map<std::string, std::string> loops_;
};

} // namespace kw::exporting
