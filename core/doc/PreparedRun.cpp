#include "doc/PreparedRun.hpp"

#include "doc/ArgumentPacker.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/DefineValues.hpp"
#include "doc/Expression.hpp"
#include "doc/LaunchEvaluator.hpp"
#include "doc/ScalarPacker.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kw {

namespace {

// A "copy" initialiser: the other buffer's initial contents, element by element (converting the dtype).
void copyInitial(const Document& doc, std::vector<BufferArg>& buffers, std::size_t target)
{
    const std::string field = "buffers[" + std::to_string(target) + "].init.from";
    const std::string& from = doc.buffers[target].init.from;
    std::size_t source = 0;
    while (source < doc.buffers.size() && doc.buffers[source].name != from)
        ++source;
    if (source == doc.buffers.size() || source == target)
        throw Error(ErrorCategory::Document, field + ": no other buffer named \"" + from + "\"");
    if (doc.buffers[source].init.kind == Initialiser::Kind::Copy)
        throw Error(ErrorCategory::Document, field + ": \"" + from + "\" is itself a copy; name the buffer it copies");
    HostBuffer& out = buffers[target].data;
    const HostBuffer& in = buffers[source].data;
    if (in.count() != out.count())
        throw Error(ErrorCategory::Document,
                    field + ": \"" + from + "\" has " + std::to_string(in.count()) + " elements, this buffer "
                        + std::to_string(out.count()));
    if (in.dtype() == out.dtype())
        out.bytes() = in.bytes();
    else
        for (std::size_t k = 0; k < in.count(); ++k)
            out.set(k, in.at(k));
}

} // namespace

PreparedRun PreparedRun::fromDocument(const Document& doc)
{
    try {
        PreparedRun run;
        run.variables = documentScope(doc);
        run.checkScope = run.variables;

        BufferFactory factory(run.variables, doc.baseDir(), doc.trust, doc.attachedFiles);
        factory.setDeadline(Deadline(doc.run.timeLimitSeconds)); // the initialisers together
        for (std::size_t b = 0; b < doc.buffers.size(); ++b) {
            const BufferSpec& spec = doc.buffers[b];
            NdArray array = factory.create(spec, "buffers[" + std::to_string(b) + "]");
            run.buffers.push_back(
                BufferArg{spec.name, spec.direction, std::move(array.data), spec.global ? spec.name : ""});
            run.shapes.push_back(std::move(array.shape));
        }
        for (std::size_t b = 0; b < doc.buffers.size(); ++b)
            if (doc.buffers[b].init.kind == Initialiser::Kind::Copy)
                copyInitial(doc, run.buffers, b);

        for (std::size_t a = 0; a < doc.args.size(); ++a) {
            const ArgSpec& spec = doc.args[a];
            PackedArgument packed = packArgument(spec, run.buffers, run.variables, argumentField("args", a, spec));
            if (packed.scalar && !spec.name.empty() && !run.checkScope.contains(spec.name)
                && !doc.findBuffer(spec.name))
                run.checkScope.set(spec.name, *packed.scalar);
            run.args.push_back(std::move(packed.arg));
        }

        run.config.warmup = doc.run.warmup;
        run.config.repeats = doc.run.repeats;
        run.config.l2Flush = doc.run.l2Flush;
        run.config.printfBufferBytes = doc.run.printfBufferBytes;
        run.config.timeLimitSeconds = doc.run.timeLimitSeconds;
        if (!doc.isSequence()) { // a document of steps gives each launch its own
            const LaunchDims dims = evaluateLaunch(doc.launch, run.variables);
            run.config.grid = dims.grid;
            run.config.block = dims.block;
            run.config.sharedBytes = dims.sharedBytes;
        }
        return run;
    } catch (const Error& e) {
        if (e.category() == ErrorCategory::Expression)
            throw Error(ErrorCategory::Document, e.what());
        throw;
    }
}

std::vector<CheckResult> PreparedRun::evaluateChecks(const Document& doc, const std::vector<BufferArg>* initial) const
{
    std::vector<CheckBuffer> views;
    for (std::size_t b = 0; b < buffers.size(); ++b) {
        CheckBuffer v{buffers[b].name, &buffers[b].data, nullptr,
                      b < shapes.size() ? shapes[b] : std::vector<std::size_t>{}};
        if (initial && b < initial->size())
            v.initial = &(*initial)[b].data;
        views.push_back(std::move(v));
    }
    const CheckEvaluator evaluator(checkScope, std::move(views));
    // The checks together get the document's time limit, as the launch does.
    const Deadline deadline(doc.run.timeLimitSeconds);
    std::vector<CheckResult> results;
    for (std::size_t c = 0; c < doc.checks.size(); ++c)
        results.push_back(evaluator.evaluate(doc.checks[c], "checks[" + std::to_string(c) + "]", deadline));
    return results;
}

} // namespace kw
