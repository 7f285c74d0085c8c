#include "doc/CheckEvaluator.hpp"

#include "util/Error.hpp"

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
        throw Error(ErrorCategory::Expression, e->field + ": " + e->name + "(" + formatNumber(j)
                                                   + ") is outside the buffer (" + std::to_string(e->buffer->count())
                                                   + " elements)");
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

void CheckEvaluator::validate(const CheckSpec& check, const std::string& field, const VariableScope& scope,
                              const std::vector<std::string>& bufferNames)
{
    const std::string exprField = field + ".expect";
    Expression e(check.expect, exprField);
    double dummy = 0;
    std::vector<std::string> names;
    for (const auto& b : bufferNames) {
        names.push_back(b);
        names.push_back(b + "_in");
    }
    for (const auto& [n, v] : scope.values())
        if (std::find(names.begin(), names.end(), n) == names.end())
            e.defineConstant(n, v);
    for (const std::string n : {"i", "x", "y", "z"})
        if (std::find(names.begin(), names.end(), n) == names.end())
            e.bindVariable(n, &dummy);
    Element unused; // muparser wants non-null user data; validation never evaluates
    for (const auto& n : names) {
        e.bindVariable(n, &dummy);
        e.bindFunction(n, elementAt, &unused);
    }
    e.compile();
}

CheckResult CheckEvaluator::evaluate(const CheckSpec& check, const std::string& field) const
{
    const std::string exprField = field + ".expect";
    const auto target = std::find_if(buffers_.begin(), buffers_.end(),
                                     [&](const CheckBuffer& b) { return b.name == check.buffer; });
    if (target == buffers_.end() || !target->data)
        throw Error(ErrorCategory::Document, field + ".buffer: no buffer named \"" + check.buffer + "\"");
    const HostBuffer& out = *target->data;
    const std::size_t count = out.count();

    Expression e(check.expect, exprField);
    // Every buffer (and its initial state) is a function; only the names the
    // expression uses are bound as per-element variables, to keep the loop cheap.
    std::vector<std::unique_ptr<Element>> elements;
    std::vector<std::string> bufferNames;
    for (const auto& b : buffers_) {
        if (b.data) {
            elements.push_back(std::make_unique<Element>(Element{b.data, b.name, exprField}));
            bufferNames.push_back(b.name);
        }
        if (b.initial) {
            elements.push_back(std::make_unique<Element>(Element{b.initial, b.name + "_in", exprField}));
            bufferNames.push_back(b.name + "_in");
        }
    }
    for (const auto& el : elements)
        e.bindFunction(el->name, elementAt, el.get());
    const auto isBuffer = [&](const std::string& n) {
        return std::find(bufferNames.begin(), bufferNames.end(), n) != bufferNames.end();
    };
    for (const auto& [n, v] : scope_.values())
        if (!isBuffer(n))
            e.defineConstant(n, v);

    double i = 0, x = 0, y = 0, z = 0;
    for (auto [n, p] : {std::pair{"i", &i}, {"x", &x}, {"y", &y}, {"z", &z}})
        if (!isBuffer(n))
            e.bindVariable(n, p);

    std::vector<std::string> used = e.usedNames();
    std::vector<std::unique_ptr<BoundValue>> bound;
    for (const auto& el : elements) {
        if (std::find(used.begin(), used.end(), el->name) == used.end())
            continue;
        if (el->buffer->count() < count)
            throw Error(ErrorCategory::Expression,
                        exprField + ": buffer \"" + el->name + "\" has " + std::to_string(el->buffer->count())
                            + " elements, \"" + check.buffer + "\" has " + std::to_string(count) + "; use "
                            + el->name + "(j) to pick elements");
        bound.push_back(std::make_unique<BoundValue>(BoundValue{el->buffer, 0.0}));
        e.bindVariable(el->name, &bound.back()->value);
    }
    e.compile();

    const std::vector<std::size_t>& shape = target->shape;
    const std::size_t w = shape.empty() ? count : shape.back();
    const std::size_t h = shape.size() >= 2 ? shape[shape.size() - 2] : 1;

    CheckResult result;
    result.buffer = check.buffer;
    result.expect = check.expect;
    result.checked = count;
    const std::size_t outSize = sizeOf(out.dtype());
    for (std::size_t k = 0; k < count; ++k) {
        i = double(k);
        x = double(k % w);
        y = double((k / w) % h);
        z = double(k / (w * h));
        for (const auto& b : bound)
            b->value = loadAsDouble(b->buffer->dtype(), b->buffer->data() + k * sizeOf(b->buffer->dtype()));
        const double expected = e.evaluate();
        const double got = loadAsDouble(out.dtype(), out.data() + k * outSize);
        bool pass;
        if (std::isnan(expected) || std::isnan(got)) {
            pass = std::isnan(expected) && std::isnan(got);
        } else if (std::isinf(expected) || std::isinf(got)) {
            pass = expected == got;
        } else {
            const double absErr = std::fabs(got - expected);
            pass = absErr <= check.absTol + check.relTol * std::fabs(expected);
            result.maxAbsError = std::max(result.maxAbsError, absErr);
            if (expected != 0)
                result.maxRelError = std::max(result.maxRelError, absErr / std::fabs(expected));
        }
        if (!pass) {
            if (result.firstMismatches.size() < 10)
                result.firstMismatches.push_back(Mismatch{k, got, expected});
            ++result.mismatches;
        }
    }
    result.passed = result.mismatches == 0;
    return result;
}

} // namespace kw
