#include "export/FieldCode.hpp"

#include "util/Error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kw::exporting {

FieldCode::FieldCode(const ExportPlan& plan, Language language, std::string element)
    : plan_(plan)
    , language_(language)
    , element_(std::move(element))
{
}

void FieldCode::enterLoop(const std::string& index, const std::string& variable)
{
    if (!index.empty())
        loops_[index] = variable;
}

void FieldCode::leaveLoop(const std::string& index)
{
    // The pass number stays defined after its loop, as the last pass left it.
    (void)index;
}

bool FieldCode::constant(const std::string& text, const std::string& field) const
{
    const ExpressionTree tree(text, field);
    for (const auto& n : tree.names())
        if (loops_.count(n) || !plan_.prepared().variables.contains(n))
            return false;
    for (const auto& c : tree.calls())
        if (!ExpressionTranslation::isBuiltinFunction(c))
            return false;
    return true;
}

double FieldCode::value(const std::string& text, const std::string& field) const
{
    return plan_.prepared().variables.evaluate(text, field);
}

std::string FieldCode::code(const std::string& text, const std::string& field) const
{
    if (constant(text, field))
        return ExpressionTranslation::literal(language_, value(text, field));
    const auto& scope = plan_.prepared().variables;
    const ExpressionTranslation t(
        language_,
        [&](const std::string& name) -> std::optional<std::string> {
            if (const auto l = loops_.find(name); l != loops_.end())
                return language_ == Language::Python ? "float(" + l->second + ")" : "double(" + l->second + ")";
            if (const auto v = scope.value(name))
                return ExpressionTranslation::literal(language_, *v);
            return std::nullopt;
        },
        [&](const std::string& name, const std::string& j) -> std::optional<std::string> {
            for (const auto& b : plan_.buffers())
                if (b.name == name)
                    return fmt::format(fmt::runtime(element_), fmt::arg("name", nlohmann::json(name).dump()),
                                       fmt::arg("j", j));
            return std::nullopt;
        });
    return t.code(text, field);
}

} // namespace kw::exporting
