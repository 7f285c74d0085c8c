#include "serve/ReturnedBuffers.hpp"

#include "data/NdArray.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DefineValues.hpp"
#include "doc/StepPaths.hpp"
#include "util/Error.hpp"
#include "util/JsonField.hpp"
#include "util/PlainFileName.hpp"

#include <algorithm>
#include <limits>

namespace kw {

using nlohmann::json;

namespace {

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorCategory::Protocol, message); }

std::string shapeText(const std::vector<std::size_t>& shape)
{
    std::string s = "[";
    for (std::size_t d = 0; d < shape.size(); ++d)
        s += (d ? ", " : "") + std::to_string(shape[d]);
    return s + "]";
}

// A member of a frame's header; a wrong type names the frame as well as the member.
template <typename T> T member(const json& header, const char* key, const std::string& frame)
{
    const auto it = header.find(key);
    if (it == header.end() || it->is_null())
        refuse(frame + ": no \"" + key + "\"");
    try {
        return JsonField::as<T>(*it, key);
    } catch (const Error& e) {
        refuse(frame + ": " + e.what());
    }
}

} // namespace

ReturnedBuffers::ReturnedBuffers(const Document& doc, std::string_view returnBuffers,
                                 const std::vector<std::string>& stepBuffers)
{
    const bool allSteps = std::find(stepBuffers.begin(), stepBuffers.end(), "*") != stepBuffers.end();
    for (const auto& [path, step] : StepPaths::list(doc.steps))
        if (allSteps || std::find(stepBuffers.begin(), stepBuffers.end(), path) != stepBuffers.end())
            steps_.insert(path);
    // Counts and shapes as the runner evaluates them (doc/PreparedRun): expressions of the
    // document's scope, no file read. One the client cannot evaluate is left unknown; the
    // runner then refuses the document itself.
    std::optional<VariableScope> scope;
    try {
        scope = documentScope(doc);
    } catch (const std::exception&) {
    }
    for (const BufferSpec& spec : doc.buffers) {
        Expected e;
        e.dtype = spec.dtype;
        e.direction = spec.direction;
        e.returned = returnBuffers == "all" || (returnBuffers != "none" && spec.direction != Direction::In);
        if (scope) {
            try {
                e.shape = BufferFactory(*scope, {}, Trust::Trusted).shape(spec, spec.name);
                e.count = NdArray::checkedElementCount(*e.shape);
            } catch (const std::exception&) {
                e.shape.reset();
            }
        }
        buffers_.emplace(spec.name, std::move(e));
    }
}

std::string ReturnedBuffers::frameKey(const std::string& step, const std::string& name)
{
    return step.empty() ? name : step + "/" + name;
}

const ReturnedBuffers::Expected& ReturnedBuffers::expected(const std::string& name, const char* what) const
{
    if (const auto problem = PlainFileName::problem(name))
        refuse(std::string(what) + " " + PlainFileName::quoted(name) + ": not a plain file name (" + *problem + ")");
    const auto it = buffers_.find(name);
    if (it == buffers_.end())
        refuse(std::string(what) + " " + PlainFileName::quoted(name) + ": not a buffer of the request's document");
    return it->second;
}

ReturnedBuffers::Frame ReturnedBuffers::admit(const json& header, std::uint64_t payloadBytes)
{
    Frame f;
    f.name = member<std::string>(header, "name", "buffer frame");
    const Expected& e = expected(f.name, "buffer frame");
    std::string frame = "buffer frame " + PlainFileName::quoted(f.name);
    if (header.contains("step") && !header["step"].is_null()) {
        f.step = member<std::string>(header, "step", frame);
        frame += " after step " + PlainFileName::quoted(f.step);
        if (!steps_.count(f.step))
            refuse(frame + ": a step this request does not ask buffers after");
    } else if (!e.returned)
        refuse(frame + ": a buffer this request does not ask back");
    const std::string key = frameKey(f.step, f.name);
    if (framed_.count(key))
        refuse(frame + ": sent twice");

    const std::string dtype = member<std::string>(header, "dtype", frame);
    const auto parsed = parseDType(dtype);
    if (!parsed || *parsed != e.dtype)
        refuse(frame + ": dtype " + PlainFileName::quoted(dtype) + ", but the document's buffer is "
               + toString(e.dtype));
    f.dtype = e.dtype;

    f.count = member<std::size_t>(header, "count", frame);
    if (e.count && f.count != *e.count)
        refuse(frame + ": " + std::to_string(f.count) + " elements, but the document's buffer has "
               + std::to_string(*e.count));
    if (f.count > kMostElements)
        refuse(frame + ": " + std::to_string(f.count) + " elements, more than any buffer may have");
    // Checked, so that a count cannot wrap round to the size of a small payload.
    const std::size_t size = sizeOf(f.dtype);
    if (f.count > std::numeric_limits<std::uint64_t>::max() / size || f.count * size != payloadBytes)
        refuse(frame + ": " + std::to_string(f.count) + " elements of " + std::to_string(size)
               + " bytes, but a payload of " + std::to_string(payloadBytes) + " bytes");

    if (header.contains("shape") && !header["shape"].is_null()) {
        const auto shape = member<std::vector<std::size_t>>(header, "shape", frame);
        if (NdArray::checkedElementCount(shape) != f.count)
            refuse(frame + ": shape " + shapeText(shape) + " does not hold its " + std::to_string(f.count)
                   + " elements");
    }
    framed_.insert(key);
    return f;
}

void ReturnedBuffers::attach(RunResult& result, std::map<std::string, HostBuffer>& frames) const
{
    attachList(result.buffers, {}, frames);
    for (StepResult& s : result.steps) {
        if (s.buffers.empty())
            continue;
        if (!steps_.count(s.path))
            refuse("the buffers after step " + PlainFileName::quoted(s.path)
                   + ": a step this request does not ask buffers after");
        attachList(s.buffers, s.path, frames);
    }
}

void ReturnedBuffers::attachList(std::vector<BufferResult>& list, const std::string& step,
                                 std::map<std::string, HostBuffer>& frames) const
{
    std::set<std::string> listed;
    const std::string after = step.empty() ? std::string() : " after step " + PlainFileName::quoted(step);
    for (BufferResult& b : list) {
        const Expected& e = expected(b.name, "result buffer");
        const std::string name = "result buffer " + PlainFileName::quoted(b.name) + after;
        if (!listed.insert(b.name).second)
            refuse(name + ": listed twice");
        if (b.data.dtype() != e.dtype)
            refuse(name + ": dtype " + toString(b.data.dtype()) + ", but the document's buffer is "
                   + toString(e.dtype));
        if (b.direction != e.direction)
            refuse(name + ": direction " + toString(b.direction) + ", but the document's buffer is "
                   + toString(e.direction));
        const auto frame = frames.find(frameKey(step, b.name));
        // The shape must describe the data a view will index: the frame's, else the document's count.
        const std::optional<std::size_t> count = frame != frames.end() ? frame->second.count() : e.count;
        if (b.shape.empty() && count)
            b.shape = {*count};
        const auto elements = NdArray::checkedElementCount(b.shape);
        if (!elements || *elements > kMostElements || (count && *elements != *count))
            refuse(name + ": shape " + shapeText(b.shape)
                   + (count ? " does not hold its " + std::to_string(*count) + " elements"
                            : " is larger than any buffer may be"));
        if (frame != frames.end())
            b.data = std::move(frame->second);
    }
}

} // namespace kw
