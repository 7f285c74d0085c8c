#include "export/CheckCode.hpp"

#include <algorithm>

namespace kw::exporting {

CheckCode::CheckCode(const ExportPlan& plan, Language language, std::map<std::string, std::string> loops)
    : plan_(plan)
    , language_(language)
    , loops_(std::move(loops))
{
}

CheckExpression CheckCode::translate(const std::string& text, const std::string& field) const
{
    CheckExpression out;
    const bool py = language_ == Language::Python;
    const auto isBuffer = [&](const std::string& n) {
        return std::any_of(plan_.buffers().begin(), plan_.buffers().end(),
                           [&](const ExportBuffer& b) { return b.name == n; });
    };
    const auto initialOf = [&](const std::string& n) -> std::string {
        if (!plan_.checksUseInitialData() || n.size() <= 3 || n.compare(n.size() - 3, 3, "_in") != 0)
            return {};
        const std::string base = n.substr(0, n.size() - 3);
        return isBuffer(base) ? base : std::string();
    };
    const auto note = [](std::vector<std::string>& list, const std::string& n) {
        if (std::find(list.begin(), list.end(), n) == list.end())
            list.push_back(n);
    };
    const auto array = [&](bool initial, const std::string& n) {
        return py ? std::string(initial ? "I" : "B") + "[\"" + n + "\"]"
                  : std::string(initial ? "i_" : "b_") + ExportPlan::identifier(n);
    };
    const auto& scope = plan_.prepared().checkScope;
    const auto documentName = [&](const std::string& n) {
        return isBuffer(n) || !initialOf(n).empty() || scope.contains(n) || loops_.count(n);
    };
    const ExpressionTranslation t(
        language_,
        [&](const std::string& n) -> std::optional<std::string> {
            if (isBuffer(n)) {
                note(out.buffers, n);
                return array(false, n) + "[k]";
            }
            if (const std::string base = initialOf(n); !base.empty()) {
                note(out.initial, base);
                return array(true, base) + "[k]";
            }
            if (const auto l = loops_.find(n); l != loops_.end())
                return py ? "float(" + l->second + ")" : "double(" + l->second + ")";
            if (const auto v = scope.value(n))
                return ExpressionTranslation::literal(language_, *v);
            for (const char* p : {"i", "x", "y", "z"}) {
                if (n == p && !documentName(n))
                    return std::string(p);
                if (n == std::string("_") + p && !documentName(n))
                    return std::string(p);
            }
            return std::nullopt;
        },
        [&](const std::string& n, const std::string& j) -> std::optional<std::string> {
            std::string base = n;
            bool initial = false;
            if (!isBuffer(n)) {
                base = initialOf(n);
                initial = true;
                if (base.empty())
                    return std::nullopt;
            }
            note(initial ? out.initial : out.buffers, base);
            return (py ? "_at(" : "kw_at(") + array(initial, base) + ", " + j + ", \"" + n + "\")";
        });
    out.code = t.code(text, field);
    return out;
}

} // namespace kw::exporting
