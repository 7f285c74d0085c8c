#include "doc/CheckEvaluator.hpp"

#include "doc/CheckAggregate.hpp"
#include "doc/ElementIndex.hpp"
#include "util/Error.hpp"
#include "util/Text.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace kw {

namespace {

// What name(j) reads: user data of a muparser function.
struct Element {
    const HostBuffer* buffer = nullptr;
    std::string name;
    std::string field;
};

double elementAt(void* userData, double j)
{
    const auto* e = static_cast<const Element*>(userData);
    if (!(j >= 0) || j != std::floor(j) || j >= double(e->buffer->count()))
        throw Error(ErrorCategory::Expression,
                    e->field + ": " + e->name + "(" + formatNumber(j) + ") is outside the buffer ("
                        + std::to_string(e->buffer->count()) + " elements)");
    return e->buffer->at(std::size_t(j));
}

// A buffer name bound as a per-element variable.
struct BoundValue {
    const HostBuffer* buffer = nullptr;
    double value = 0;
};

} // namespace

CheckEvaluator::CheckEvaluator(const VariableScope& scope, std::vector<CheckBuffer> buffers)
    : scope_(scope)
    , buffers_(std::move(buffers))
{
}

bool CheckEvaluator::usesInitialData(const std::vector<CheckSpec>& checks)
{
    return std::any_of(checks.begin(), checks.end(), [](const CheckSpec& c) {
        return c.expect.find("_in") != std::string::npos || c.of.find("_in") != std::string::npos;
    });
}

void CheckEvaluator::validate(const CheckSpec& check, const std::string& field, const VariableScope& scope,
                              const std::vector<std::string>& bufferNames)
{
    if (trim(check.expect).empty())
        throw Error(ErrorCategory::Document, field + ".expect: is empty");
    if (!(check.absTol >= 0))
        throw Error(ErrorCategory::Document, field + ".abs_tol: must not be negative");
    if (!(check.relTol >= 0))
        throw Error(ErrorCategory::Document, field + ".rel_tol: must not be negative");
    std::vector<std::pair<std::string, std::string>> texts{{check.expect, field + ".expect"}};
    if (!check.of.empty())
        texts.emplace_back(check.of, field + ".of");
    for (const auto& [text, exprField] : texts) {
        Expression e(text, exprField);
        double dummy = 0;
        std::vector<std::string> names;
        for (const auto& b : bufferNames) {
            names.push_back(b);
            names.push_back(b + "_in");
        }
        for (const auto& [n, v] : scope.values())
            if (std::find(names.begin(), names.end(), n) == names.end())
                e.defineConstant(n, v);
        ElementIndex index;
        index.bindIn(e, [&](const std::string& n) {
            return std::find(names.begin(), names.end(), n) != names.end() || scope.contains(n);
        });
        Element unused; // muparser wants non-null user data; validation never evaluates
        for (const auto& n : names) {
            e.bindVariable(n, &dummy);
            e.bindFunction(n, elementAt, &unused);
        }
        e.compile();
    }
}

namespace {

// An expression evaluated per element k of a buffer of `count` elements: i, x, y, z,
// the scope, and every buffer by name (element k) and name(j).
class PerElement {
public:
    PerElement(const VariableScope& scope, const std::vector<CheckBuffer>& buffers, const std::string& text,
               const std::string& field, const std::string& targetName, std::size_t count,
               const std::vector<std::size_t>& shape)
        : e_(text, field)
        , count_(count)
    {
        std::vector<std::string> bufferNames;
        for (const auto& b : buffers) {
            if (b.data) {
                elements_.push_back(std::make_unique<Element>(Element{b.data, b.name, field}));
                bufferNames.push_back(b.name);
            }
            if (b.initial) {
                elements_.push_back(std::make_unique<Element>(Element{b.initial, b.name + "_in", field}));
                bufferNames.push_back(b.name + "_in");
            }
        }
        // Every buffer (and its initial state) is a function; only the names the
        // expression uses are bound as per-element variables, to keep the loop cheap.
        for (const auto& el : elements_)
            e_.bindFunction(el->name, elementAt, el.get());
        const auto isBuffer = [&](const std::string& n) {
            return std::find(bufferNames.begin(), bufferNames.end(), n) != bufferNames.end();
        };
        for (const auto& [n, v] : scope.values())
            if (!isBuffer(n))
                e_.defineConstant(n, v);
        index_.bindIn(e_, [&](const std::string& n) { return isBuffer(n) || scope.contains(n); });

        const std::vector<std::string> used = e_.usedNames();
        for (const auto& el : elements_) {
            if (std::find(used.begin(), used.end(), el->name) == used.end())
                continue;
            if (el->buffer->count() < count)
                throw Error(ErrorCategory::Expression,
                            field + ": buffer \"" + el->name + "\" has " + std::to_string(el->buffer->count())
                                + " elements, \"" + targetName + "\" has " + std::to_string(count) + "; use " + el->name
                                + "(j) to pick elements");
            bound_.push_back(std::make_unique<BoundValue>(BoundValue{el->buffer, 0.0}));
            e_.bindVariable(el->name, &bound_.back()->value);
        }
        e_.compile();
        w_ = shape.empty() ? std::max<std::size_t>(count, 1) : std::max<std::size_t>(shape.back(), 1);
        h_ = shape.size() >= 2 ? std::max<std::size_t>(shape[shape.size() - 2], 1) : 1;
    }

    double at(std::size_t k)
    {
        index_.moveTo(k, w_, h_);
        for (const auto& b : bound_)
            b->value = loadAsDouble(b->buffer->dtype(), b->buffer->data() + k * sizeOf(b->buffer->dtype()));
        return e_.evaluate();
    }

private:
    Expression e_;
    std::size_t count_ = 0, w_ = 1, h_ = 1;
    ElementIndex index_;
    std::vector<std::unique_ptr<Element>> elements_;
    std::vector<std::unique_ptr<BoundValue>> bound_;
};

bool withinTolerance(const CheckSpec& check, double got, double expected, CheckResult& result)
{
    if (std::isnan(expected) || std::isnan(got))
        return std::isnan(expected) && std::isnan(got);
    if (std::isinf(expected) || std::isinf(got))
        return expected == got;
    const double absErr = std::fabs(got - expected);
    result.maxAbsError = std::max(result.maxAbsError, absErr);
    if (expected != 0)
        result.maxRelError = std::max(result.maxRelError, absErr / std::fabs(expected));
    return absErr <= check.absTol + check.relTol * std::fabs(expected);
}

} // namespace

CheckResult CheckEvaluator::evaluate(const CheckSpec& check, const std::string& field, const Deadline& deadline) const
{
    const auto target
        = std::find_if(buffers_.begin(), buffers_.end(), [&](const CheckBuffer& b) { return b.name == check.buffer; });
    if (target == buffers_.end() || !target->data)
        throw Error(ErrorCategory::Document, field + ".buffer: no buffer named \"" + check.buffer + "\"");
    const HostBuffer& out = *target->data;
    const std::size_t count = out.count();

    CheckResult result;
    result.buffer = check.buffer;
    result.expect = check.expect;
    result.checked = count;
    if (!check.aggregate.empty()) {
        // One comparison: the aggregate of `of` over the buffer against `expect`.
        const std::string of = check.of.empty() ? check.buffer : check.of;
        PerElement value(scope_, buffers_, of, field + ".of", check.buffer, count, target->shape);
        CheckAggregate aggregate(check.aggregate);
        for (std::size_t k = 0; k < count; ++k) {
            deadline.checkEvery(k, field);
            aggregate.add(value.at(k));
        }
        PerElement expect(scope_, buffers_, check.expect, field + ".expect", check.buffer, 1, {});
        const double expected = expect.at(0);
        const double got = aggregate.result();
        result.expect = check.aggregate + "(" + of + ") == " + check.expect;
        if (!withinTolerance(check, got, expected, result)) {
            result.firstMismatches.push_back(Mismatch{0, got, expected});
            result.mismatches = 1;
        }
        result.passed = result.mismatches == 0;
        return result;
    }

    PerElement expect(scope_, buffers_, check.expect, field + ".expect", check.buffer, count, target->shape);
    const std::size_t outSize = sizeOf(out.dtype());
    for (std::size_t k = 0; k < count; ++k) {
        deadline.checkEvery(k, field);
        const double expected = expect.at(k);
        const double got = loadAsDouble(out.dtype(), out.data() + k * outSize);
        if (!withinTolerance(check, got, expected, result)) {
            if (result.firstMismatches.size() < 10)
                result.firstMismatches.push_back(Mismatch{k, got, expected});
            ++result.mismatches;
        }
    }
    result.passed = result.mismatches == 0;
    return result;
}

} // namespace kw
