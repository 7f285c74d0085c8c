#include "doc/StepValidator.hpp"

#include "doc/BufferFactory.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/Expression.hpp"
#include "doc/StepPaths.hpp"
#include "util/Error.hpp"
#include "util/Text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace kw {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& why)
{
    throw Error(ErrorCategory::Document, field + ": " + why);
}

// Buffer reads are not evaluated while validating: any element reads as 0.
double noElement(void*, double) { return 0; }

std::vector<std::string> bufferNames(const Document& doc)
{
    std::vector<std::string> names;
    for (const BufferSpec& b : doc.buffers)
        names.push_back(b.name);
    return names;
}

// The one rule for a step's check: its buffer exists, its expressions use the names in `scope`.
void validateStepCheck(const Document& doc, const CheckSpec& check, const std::string& field,
                       const VariableScope& scope)
{
    if (!doc.findBuffer(check.buffer))
        fail(field + ".buffer", "no buffer named \"" + check.buffer + "\"");
    CheckEvaluator::validate(check, field, scope, bufferNames(doc));
}

class Steps {
public:
    Steps(const Document& doc, const VariableScope& scope)
        : doc_(doc)
        , factory_(scope, doc.baseDir(), doc.trust, doc.attachedFiles)
    {
        for (std::size_t k = 0; k < doc.kernels.size(); ++k) {
            const std::string field = "kernels[" + std::to_string(k) + "]";
            const std::string name = std::string(trim(doc.kernels[k]));
            if (signatures_.count(name))
                fail(field, "\"" + name + "\" is listed twice");
            signatures_.emplace(name, DocumentValidator::kernelSignature(doc, name, field));
        }
    }

    void list(const std::vector<StepSpec>& steps, const std::string& field, VariableScope scope, int depth) const
    {
        static int unused; // muparser wants user data that is not null
        for (const BufferSpec& b : doc_.buffers)
            scope.setFunction(b.name, noElement, &unused);
        for (std::size_t i = 0; i < steps.size(); ++i)
            step(steps[i], fmt::format("{}[{}]", field, i), scope, depth);
    }

private:
    void names(const std::string& text, const std::string& field, const VariableScope& scope) const
    {
        if (trim(text).empty())
            fail(field, "is empty");
        Expression e(text, field);
        scope.defineIn(e);
        e.compile();
    }

    const BufferSpec& buffer(const std::string& name, const std::string& field) const
    {
        const BufferSpec* b = doc_.findBuffer(name);
        if (!b)
            fail(field, "no buffer named \"" + name + "\"");
        return *b;
    }

    std::size_t elements(const BufferSpec& b) const
    {
        return NdArray::elementCount(factory_.shape(b, "buffers (" + b.name + ")"));
    }

    void step(const StepSpec& s, const std::string& field, const VariableScope& scope, int depth) const
    {
        using K = StepSpec::Kind;
        switch (s.kind) {
        case K::Launch: launch(s, field, scope); break;
        case K::Copy: {
            const BufferSpec& from = buffer(s.from, field + ".copy");
            const BufferSpec& to = buffer(s.to, field + ".to");
            if (from.dtype != to.dtype)
                fail(field,
                     fmt::format("\"{}\" is {} and \"{}\" is {}; a copy moves elements of one dtype", from.name,
                                 toString(from.dtype), to.name, toString(to.dtype)));
            for (const auto& [text, f] : {std::pair{s.count, ".count"}, std::pair{s.fromOffset, ".from_offset"},
                                          std::pair{s.toOffset, ".to_offset"}})
                if (!text.empty())
                    names(text, field + f, scope);
            if (s.count.empty() && s.fromOffset.empty() && s.toOffset.empty() && elements(from) != elements(to))
                fail(field + ".count",
                     fmt::format("missing: \"{}\" has {} elements and \"{}\" {}; say how many to copy", from.name,
                                 elements(from), to.name, elements(to)));
            break;
        }
        case K::Fill:
            buffer(s.to, field + ".fill");
            names(s.value, field + ".value", scope);
            if (!s.count.empty())
                names(s.count, field + ".count", scope);
            if (!s.toOffset.empty())
                names(s.toOffset, field + ".offset", scope);
            break;
        case K::Swap: {
            const BufferSpec& a = buffer(s.from, field + ".swap[0]");
            const BufferSpec& b = buffer(s.to, field + ".swap[1]");
            if (&a == &b)
                fail(field + ".swap", "swaps \"" + a.name + "\" with itself");
            for (const BufferSpec* g : {&a, &b})
                if (g->global)
                    fail(field + ".swap",
                         "\"" + g->name + "\" is a global (a module variable); its name is the module's");
            if (a.dtype != b.dtype || elements(a) != elements(b))
                fail(field + ".swap",
                     fmt::format("\"{}\" has {} elements of {}, \"{}\" {} elements of {}; a swap "
                                 "exchanges buffers of one shape and dtype",
                                 a.name, elements(a), toString(a.dtype), b.name, elements(b), toString(b.dtype)));
            break;
        }
        case K::Repeat:
        case K::RepeatUntil: {
            const bool until = s.kind == K::RepeatUntil;
            if (until)
                names(s.limit, field + ".limit", scope);
            else
                names(s.times, field + ".repeat", scope);
            VariableScope inner = scope;
            if (!s.index.empty()) {
                if (!isIdentifier(s.index))
                    fail(field + ".index",
                         "\"" + s.index + "\" is not a valid name (a letter or _, then letters, digits or _)");
                if (scope.contains(s.index))
                    fail(field + ".index", "\"" + s.index + "\" is already a variable");
                if (doc_.findBuffer(s.index))
                    fail(field + ".index", "\"" + s.index + "\" is already a buffer");
                inner.set(s.index, 0);
            }
            if (until)
                names(s.until, field + ".repeat_until", inner);
            list(s.steps, field + ".steps", inner, depth + 1);
            checks(s.checks, field + ".checks", inner);
            return;
        }
        }
        checks(s.checks, field + ".checks", scope);
    }

    void launch(const StepSpec& s, const std::string& field, const VariableScope& scope) const
    {
        const auto sig = signatures_.find(std::string(trim(s.kernel)));
        if (sig == signatures_.end()) {
            std::string listed;
            for (const std::string& k : doc_.kernels)
                listed += (listed.empty() ? "" : ", ") + k;
            fail(field + ".launch",
                 "\"" + s.kernel + "\" is not one of the document's kernels (" + (listed.empty() ? "none" : listed)
                     + ")");
        }
        for (std::size_t d = 0; d < 3; ++d) {
            names(s.launch.grid[d], fmt::format("{}.grid[{}]", field, d), scope);
            names(s.launch.block[d], fmt::format("{}.block[{}]", field, d), scope);
        }
        names(s.launch.sharedBytes, field + ".shared_bytes", scope);
        DocumentValidator::validateArgs(doc_, sig->second, s.args, field + ".args", scope);
    }

    void checks(const std::vector<CheckSpec>& list, const std::string& field, const VariableScope& scope) const
    {
        for (std::size_t c = 0; c < list.size(); ++c)
            validateStepCheck(doc_, list[c], fmt::format("{}[{}]", field, c), scope);
    }

    const Document& doc_;
    const BufferFactory factory_;
    std::map<std::string, KernelSignature> signatures_;
};

} // namespace

void StepValidator::validate(const Document& doc, const VariableScope& scope)
{
    if (doc.kernels.empty())
        fail("kernels", "is empty (list the kernels the steps launch)");
    Steps(doc, scope).list(doc.steps, "steps", scope, 0);
}

void StepValidator::validateCheck(const Document& doc, const std::string& path, std::size_t index,
                                  const VariableScope& scope)
{
    const auto places = StepPaths::places(path);
    if (!places)
        throw Error(ErrorCategory::Usage, "\"" + path + "\" is not a step's path");
    VariableScope inner = scope;
    std::string field;
    const std::vector<StepSpec>* level = &doc.steps;
    const StepSpec* step = nullptr;
    for (std::size_t i : *places) {
        if (i >= level->size())
            throw Error(ErrorCategory::Usage, "the document has no step " + path);
        step = &(*level)[i];
        field = fmt::format("{}steps[{}]", field.empty() ? "" : field + ".", i);
        // A repeat's index is a name inside it; a wrong one is the repeat's error, not the check's.
        if (!step->index.empty() && isIdentifier(step->index) && !inner.contains(step->index)
            && !doc.findBuffer(step->index))
            inner.set(step->index, 0);
        level = &step->steps;
    }
    validateStepCheck(doc, step->checks.at(index), fmt::format("{}.checks[{}]", field, index), inner);
}

} // namespace kw
