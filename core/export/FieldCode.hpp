#pragma once
// A document field's expression as code of an exported program: the value the
// workbench evaluates now, as a literal, when it depends on nothing that changes while
// the program runs; otherwise the expression translated, reading the loops' pass
// numbers and the buffers on the device (`changed(0)`) where the program runs.
#include "export/ExportPlan.hpp"
#include "export/ExpressionTranslation.hpp"

#include <map>
#include <string>

namespace kw::exporting {

class FieldCode {
public:
    // `element` is how the program reads element j of a buffer on the device: a format
    // with {name} (a quoted string) and {j} ("run.elem({name}, {j})").
    FieldCode(const ExportPlan& plan, Language language, std::string element);
    // The loops around: their `index` names and the program's variables for them.
    void enterLoop(const std::string& index, const std::string& variable);
    void leaveLoop(const std::string& index);
    // Whether the text can be evaluated now.
    bool constant(const std::string& text, const std::string& field) const;
    double value(const std::string& text, const std::string& field) const;
    // Code computing the double the expression gives.
    std::string code(const std::string& text, const std::string& field) const;

private:
    const ExportPlan& plan_;
    Language language_;
    std::string element_;
    std::map<std::string, std::string> loops_;
};

} // namespace kw::exporting
