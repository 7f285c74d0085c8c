#include "doc/DocumentValidator.hpp"

#include "compile/Compiler.hpp"
#include "compile/IncludeGate.hpp"
#include "compile/SignatureParser.hpp"
#include "compile/TranslationUnitKernels.hpp"
#include "data/CVectorType.hpp"
#include "doc/ArgumentPacker.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/DefineValues.hpp"
#include "doc/ElementIndex.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "doc/ScalarPacker.hpp"
#include "doc/StepValidator.hpp"
#include "doc/VariableScope.hpp"
#include "util/ConfinedFolder.hpp"
#include "util/Error.hpp"
#include "util/Text.hpp"

#include <algorithm>
#include <cctype>

namespace kw {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& why)
{
    throw Error(ErrorCategory::Document, field + ": " + why);
}

std::string unqualified(const std::string& name)
{
    const std::size_t colon = name.rfind("::");
    return colon == std::string::npos ? name : name.substr(colon + 2);
}

void checkName(const std::string& name, const std::string& field)
{
    if (!isIdentifier(name))
        fail(field, "\"" + name + "\" is not a valid name (a letter or _, then letters, digits or _)");
}

void validateVariables(const Document& doc)
{
    for (std::size_t v = 0; v < doc.variables.size(); ++v) {
        const std::string& name = doc.variables[v].first;
        const std::string field = "variables[" + std::to_string(v) + "]";
        checkName(name, field);
        for (std::size_t u = 0; u < v; ++u)
            if (doc.variables[u].first == name)
                fail(field, "\"" + name + "\" is already defined by variables[" + std::to_string(u) + "]");
    }
}

void validateBuffers(const Document& doc, const VariableScope& scope)
{
    const BufferFactory factory(scope, doc.baseDir(), doc.trust, doc.attachedFiles);
    for (std::size_t b = 0; b < doc.buffers.size(); ++b) {
        const BufferSpec& spec = doc.buffers[b];
        const std::string field = "buffers[" + std::to_string(b) + "]";
        checkName(spec.name, field + ".name");
        for (std::size_t o = 0; o < b; ++o)
            if (doc.buffers[o].name == spec.name)
                fail(field + ".name", "\"" + spec.name + "\" is already used by buffers[" + std::to_string(o) + "]");
        if (scope.contains(spec.name))
            fail(field + ".name", "\"" + spec.name + "\" is also a variable; give the buffer another name");
        const std::vector<std::size_t> shape = factory.shape(spec, field);

        const Initialiser& init = spec.init;
        const std::string initField = field + ".init";
        switch (init.kind) {
        case Initialiser::Kind::Fill: scope.evaluate(init.value, initField + ".value"); break;
        case Initialiser::Kind::Arange:
            scope.evaluate(init.start, initField + ".start");
            scope.evaluate(init.step, initField + ".step");
            break;
        case Initialiser::Kind::Linspace:
            scope.evaluate(init.start, initField + ".start");
            scope.evaluate(init.stop, initField + ".stop");
            break;
        case Initialiser::Kind::Uniform:
            if (!(init.low <= init.high))
                fail(initField, "low (" + formatNumber(init.low) + ") is above high (" + formatNumber(init.high) + ")");
            break;
        case Initialiser::Kind::Normal:
            if (!(init.stddev >= 0))
                fail(initField + ".stddev", "must not be negative (" + formatNumber(init.stddev) + ")");
            break;
        case Initialiser::Kind::Expression: {
            if (trim(init.expression).empty())
                fail(initField + ".expr", "is empty");
            ElementIndex index;
            Expression e(init.expression, initField + ".expr");
            scope.defineIn(e);
            index.bindIn(e, [&](const std::string& n) { return scope.contains(n); });
            e.compile();
            break;
        }
        case Initialiser::Kind::File:
            factory.checkFile(spec, field); // existence, format and element count
            break;
        case Initialiser::Kind::Copy: {
            const BufferSpec* source = doc.findBuffer(init.from);
            if (!source || source == &spec)
                fail(initField + ".from", "no other buffer named \"" + init.from + "\"");
            if (source->init.kind == Initialiser::Kind::Copy)
                fail(initField + ".from", "\"" + init.from + "\" is itself a copy; name the buffer it copies");
            const std::size_t mine = NdArray::elementCount(shape);
            const std::size_t theirs = NdArray::elementCount(factory.shape(*source, "buffers (" + source->name + ")"));
            if (mine != theirs)
                fail(initField + ".from",
                     "\"" + init.from + "\" has " + std::to_string(theirs) + " elements, this buffer "
                         + std::to_string(mine));
            break;
        }
        case Initialiser::Kind::Zeros: break;
        }
    }
}

std::string typeOf(const KernelParam& p) { return p.type.empty() ? p.baseType : p.type; }

void validateRun(const RunSettings& run)
{
    if (run.warmup < 0)
        fail("run.warmup", "must not be negative (" + std::to_string(run.warmup) + ")");
    if (run.repeats < 0)
        fail("run.repeats", "must not be negative (" + std::to_string(run.repeats) + ")");
    if (run.printfBufferBytes == 0)
        fail("run.printf_buffer_bytes", "must be positive");
    if (!(run.timeLimitSeconds > 0))
        fail("run.time_limit_s", "must be positive (" + formatNumber(run.timeLimitSeconds) + ")");
}

// What a check's expressions may name: the buffers, the variables and the scalar
// arguments (by parameter name).
struct CheckNames {
    VariableScope scope;
    std::vector<std::string> buffers;
};

CheckNames checkNames(const Document& doc, const VariableScope& scope)
{
    CheckNames names{scope, {}};
    for (const auto& b : doc.buffers)
        names.buffers.push_back(b.name);
    for (const auto& a : doc.args)
        if (!a.isBuffer() && !a.null && !a.name.empty() && !names.scope.contains(a.name) && !doc.findBuffer(a.name))
            names.scope.set(a.name, 0.0);
    return names;
}

void validateOneCheck(const Document& doc, const CheckSpec& check, const std::string& field, const CheckNames& names)
{
    if (!doc.findBuffer(check.buffer))
        fail(field + ".buffer", "no buffer named \"" + check.buffer + "\"");
    CheckEvaluator::validate(check, field, names.scope, names.buffers);
}

void validateChecks(const Document& doc, const VariableScope& scope)
{
    // Each check is a pass over its buffer after the launch: their number is bounded too.
    constexpr std::size_t kMaxChecks = 1000;
    if (doc.checks.size() > kMaxChecks)
        fail("checks",
             std::to_string(doc.checks.size()) + " checks; a document may have at most " + std::to_string(kMaxChecks));
    const CheckNames names = checkNames(doc, scope);
    for (std::size_t c = 0; c < doc.checks.size(); ++c)
        validateOneCheck(doc, doc.checks[c], "checks[" + std::to_string(c) + "]", names);
}

} // namespace

std::vector<KernelSignature> DocumentValidator::kernels(const std::string& source, const std::filesystem::path& folder,
                                                        const std::string& sourceName)
{
    std::vector<IncludedFile> files;
    if (!folder.empty()) {
        try {
            files = IncludeGate(ConfinedFolder(folder), {}, Compiler::installedIncludeDirs())
                        .admitAll(source, sourceName)
                        .files;
        } catch (const std::exception&) {
            // A folder that cannot be read: the source's own kernels.
        }
    }
    return translationUnitKernels(source, files, folder);
}

KernelSignature DocumentValidator::kernelSignature(const Document& doc)
{
    return kernelSignature(doc, doc.kernel, "kernel");
}

KernelSignature DocumentValidator::kernelSignature(const Document& doc, const std::string& name,
                                                   const std::string& field)
{
    const std::string kernel = std::string(trim(name));
    if (kernel.empty())
        fail(field, "no kernel named");
    const std::size_t angle = kernel.find('<');
    const std::string base = std::string(trim(kernel.substr(0, angle)));
    const std::vector<KernelSignature> kernels
        = DocumentValidator::kernels(doc.source, doc.baseDir(), doc.sourceName());
    const KernelSignature* found = nullptr;
    for (const auto& k : kernels)
        if (k.name == base)
            found = &k;
    if (!found)
        for (const auto& k : kernels)
            if (unqualified(k.name) == unqualified(base))
                found = &k;
    if (!found) {
        std::string names;
        for (const auto& k : kernels)
            names += (names.empty() ? "" : ", ") + k.name + (k.file.empty() ? "" : " (in " + k.file + ")");
        fail(field,
             "\"" + kernel + "\" is not a __global__ function of the source (found: " + (names.empty() ? "none" : names)
                 + ")");
    }
    if (found->templateParams.empty()) {
        if (angle != std::string::npos)
            fail(field, "\"" + kernel + "\" gives template arguments, but " + found->name + " is not a template");
        return *found;
    }
    try {
        return instantiate(*found, kernel);
    } catch (const Error& e) {
        fail(field,
             std::string(e.what()) + " (" + found->name + " is a template; name an instantiation such as " + found->name
                 + "<...>)");
    }
}

void DocumentValidator::validateArgs(const Document& doc, const KernelSignature& kernel,
                                     const std::vector<ArgSpec>& args, const std::string& listField,
                                     const VariableScope& scope)
{
    if (args.size() != kernel.params.size()) {
        std::string params;
        for (const auto& p : kernel.params)
            params += (params.empty() ? "" : ", ") + typeOf(p) + (p.name.empty() ? "" : " " + p.name);
        fail(listField,
             "the kernel " + kernel.name + " has " + std::to_string(kernel.params.size()) + " parameter"
                 + (kernel.params.size() == 1 ? "" : "s") + " (" + params + "), the document gives "
                 + std::to_string(args.size()));
    }
    for (std::size_t a = 0; a < args.size(); ++a) {
        const ArgSpec& arg = args[a];
        const KernelParam& param = kernel.params[a];
        const std::string paramText = "\"" + typeOf(param) + (param.name.empty() ? "" : " " + param.name) + "\"";
        const std::string field = argumentField(listField, a, arg);
        if (arg.isBuffer()) {
            if (!param.isPointer)
                fail(field,
                     "parameter " + paramText + " is not a pointer; give {\"type\", \"value\"} instead of a buffer");
            const BufferSpec* buffer = doc.findBuffer(arg.buffer);
            if (!buffer) {
                std::string names;
                for (const auto& b : doc.buffers)
                    names += (names.empty() ? "" : ", ") + b.name;
                fail(field + ".buffer",
                     "no buffer named \"" + arg.buffer + "\" (buffers: " + (names.empty() ? "none" : names) + ")");
            }
            if (buffer->global)
                fail(field + ".buffer", "\"" + arg.buffer + "\" is a global (a module variable), not a buffer to pass");
            const auto pointee = param.pointerDepth <= 1 ? dtypeForCType(param.baseType) : std::nullopt;
            if (pointee && *pointee != buffer->dtype && sizeOf(*pointee) != sizeOf(buffer->dtype))
                fail(field + ".buffer",
                     "buffer \"" + arg.buffer + "\" is " + toString(buffer->dtype) + " but the parameter is "
                         + paramText);
            const auto vector = param.pointerDepth <= 1 && !pointee ? vectorTypeOf(param.baseType) : std::nullopt;
            if (vector) {
                // float4* takes an f32 buffer of 4 elements per vector.
                if (sizeOf(buffer->dtype) != vector->componentSize)
                    fail(field + ".buffer",
                         "buffer \"" + arg.buffer + "\" has " + std::to_string(sizeOf(buffer->dtype))
                             + "-byte elements (" + toString(buffer->dtype) + ") but parameter " + paramText + " has "
                             + std::to_string(vector->componentSize) + "-byte components");
                const std::size_t count
                    = NdArray::elementCount(BufferFactory(scope, doc.baseDir(), doc.trust).shape(*buffer, field));
                if (count % vector->components != 0)
                    fail(field + ".buffer",
                         "buffer \"" + arg.buffer + "\" has " + std::to_string(count)
                             + " elements, not a whole number of " + param.baseType + " ("
                             + std::to_string(vector->components) + " each)");
            }
        } else if (arg.null) {
            if (!param.isPointer)
                fail(field,
                     "parameter " + paramText
                         + " is not a pointer; a null pointer (\"buffer\": null) goes to a pointer");
        } else {
            if (param.isPointer)
                fail(field,
                     "parameter " + paramText
                         + " is a pointer; give {\"buffer\": NAME}, or {\"buffer\": null} for a null pointer");
            const auto expected = dtypeForCType(param.baseType);
            if (expected && *expected != arg.type)
                fail(field + ".type",
                     std::string(toString(arg.type)) + " does not match parameter " + paramText + " ("
                         + toString(*expected) + ")");
            if (trim(arg.value).empty())
                fail(field + ".value", "is empty");
            packScalar(arg.type, arg.value, scope.evaluate(arg.value, field + ".value"), field + ".value");
        }
    }
}

void DocumentValidator::validateCheck(const Document& doc, std::size_t index, const std::string& step)
{
    // The variables' own errors are theirs, not the check's: a variable that does not
    // evaluate is still a name the check may use.
    VariableScope scope;
    try {
        scope = documentScope(doc);
    } catch (const Error&) {
        for (const auto& [name, text] : doc.variables)
            scope.set(name, 0.0);
    }
    try {
        if (step.empty())
            validateOneCheck(doc, doc.checks.at(index), "checks[" + std::to_string(index) + "]",
                             checkNames(doc, scope));
        else
            StepValidator::validateCheck(doc, step, index, scope);
    } catch (const Error& e) {
        if (e.category() == ErrorCategory::Expression)
            throw Error(ErrorCategory::Document, e.what());
        throw;
    }
}

void DocumentValidator::validate(const Document& doc)
{
    try {
        if (doc.source.empty())
            fail(doc.sourceFile.empty() ? "source" : "source_file", "the kernel source is empty");
        std::optional<KernelSignature> kernel;
        if (!doc.isSequence())
            kernel = kernelSignature(doc);
        validateVariables(doc);
        const VariableScope scope = documentScope(doc);
        validateBuffers(doc, scope);
        if (kernel) {
            validateArgs(doc, *kernel, doc.args, "args", scope);
            evaluateLaunch(doc.launch, scope);
        } else {
            StepValidator::validate(doc, scope);
        }
        validateRun(doc.run);
        validateChecks(doc, scope);
    } catch (const Error& e) {
        if (e.category() == ErrorCategory::Expression)
            throw Error(ErrorCategory::Document, e.what());
        throw;
    }
}

} // namespace kw
