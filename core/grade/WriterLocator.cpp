#include "grade/WriterLocator.hpp"

#include "debug/DebugSession.hpp"
#include "util/Error.hpp"

#include <filesystem>
#include <functional>

namespace kw::grade {
namespace {

// The launch steps' paths in document order ("1", "3.2").
void launchPaths(const std::vector<StepSpec>& steps, const std::string& parent, std::vector<std::string>& out)
{
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string path = (parent.empty() ? "" : parent + ".") + std::to_string(i + 1);
        if (steps[i].kind == StepSpec::Kind::Launch)
            out.push_back(path);
        launchPaths(steps[i].steps, path, out);
    }
}

void unflatten(std::uint64_t linear, Dim3 shape, std::uint64_t out[3])
{
    out[0] = linear % shape.x;
    out[1] = (linear / shape.x) % shape.y;
    out[2] = linear / (std::uint64_t(shape.x) * shape.y);
}

} // namespace

ElementWriter WriterLocator::inLaunch(const Document& doc, const std::string& step, Dim3 grid, Dim3 block,
                                      const std::string& buffer, std::size_t index)
{
    debug::DebugOptions options;
    options.step = step;
    options.timeLimitSeconds = doc.run.timeLimitSeconds;
    options.optimized = true; // the code the grader ran
    auto session = debug::DebugSession::fromDocument(doc, compiler_, options);
    debug::WatchSpec watch;
    watch.buffer = buffer;
    watch.index = index;
    session->addWatch(watch);
    ElementWriter writer;
    while (!session->ended()) {
        const debug::Stop stop = session->resume(debug::Motion::Continue);
        if (stop.reason != debug::StopReason::Watch || !stop.watch || !stop.watch->write)
            continue;
        const debug::WatchHit& hit = *stop.watch;
        writer.found = true;
        writer.warp = hit.warp;
        writer.lane = std::uint32_t(hit.lane);
        unflatten(hit.block, grid, writer.block);
        unflatten(std::uint64_t(hit.warp) * 32 + std::uint64_t(hit.lane), block, writer.thread);
        writer.file = std::filesystem::path(hit.where.file).filename().string();
        writer.line = hit.where.line;
        writer.step = step;
    }
    return writer;
}

ElementWriter WriterLocator::locate(const Document& doc, const RunResult& ran, const std::string& buffer,
                                    std::size_t index)
{
    try {
        if (!doc.isSequence()) {
            ElementWriter w = inLaunch(doc, {}, ran.grid, ran.block, buffer, index);
            if (!w.found)
                w.note = "no thread wrote this element";
            return w;
        }
        std::vector<std::string> paths;
        launchPaths(doc.steps, {}, paths);
        for (auto it = paths.rbegin(); it != paths.rend(); ++it) {
            Dim3 grid, block;
            for (const StepResult& s : ran.steps)
                if (s.path == *it) {
                    grid = s.grid;
                    block = s.block;
                }
            ElementWriter w = inLaunch(doc, *it, grid, block, buffer, index);
            if (w.found)
                return w;
        }
        ElementWriter none;
        none.note = "no launch step wrote this element (a step inside a loop is watched in its first pass)";
        return none;
    } catch (const Error& e) {
        ElementWriter unknown;
        unknown.note = std::string("the writer could not be found: ") + e.what();
        return unknown;
    }
}

} // namespace kw::grade
