#include "StepTree.hpp"

#include "doc/StepPaths.hpp"

#include <charconv>
#include <iterator>
#include <utility>

namespace kw {

namespace {
// The list that holds the step at `path`; null when the path leads nowhere.
std::vector<StepSpec>* siblings(std::vector<StepSpec>& steps, const StepPath& path)
{
    if (path.empty())
        return nullptr;
    std::vector<StepSpec>* list = &steps;
    for (std::size_t d = 0; d + 1 < path.size(); ++d) {
        if (path[d] < 0 || path[d] >= int(list->size()))
            return nullptr;
        list = &(*list)[path[d]].steps;
    }
    return path.back() >= 0 && path.back() < int(list->size()) ? list : nullptr;
}

const std::vector<StepSpec>* siblings(const std::vector<StepSpec>& steps, const StepPath& path)
{
    return siblings(const_cast<std::vector<StepSpec>&>(steps), path);
}

void collect(const std::vector<StepSpec>& steps, StepPath& at, std::vector<StepPath>& out)
{
    for (int i = 0; i < int(steps.size()); ++i) {
        at.push_back(i);
        out.push_back(at);
        collect(steps[i].steps, at, out);
        at.pop_back();
    }
}
} // namespace

std::string StepTree::text(const StepPath& path)
{
    std::string s;
    for (int i : path)
        s = StepPaths::child(s, std::size_t(i));
    return s;
}

std::optional<StepPath> StepTree::parse(const std::string& text)
{
    StepPath path;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        int n = 0;
        const auto [next, ec] = std::from_chars(p, end, n);
        if (ec != std::errc() || n < 1)
            return std::nullopt;
        path.push_back(n - 1);
        p = next;
        if (p < end && (*p++ != '.' || p == end)) // "2.1", never "2." nor "2x"
            return std::nullopt;
    }
    if (path.empty())
        return std::nullopt;
    return path;
}

std::optional<StepPath> StepTree::ofField(const std::string& field, std::string* rest)
{
    static const std::string key = "steps[";
    StepPath path;
    std::size_t at = 0; // where the next "steps[" must begin
    while (field.compare(at, key.size(), key) == 0) {
        const std::size_t close = field.find(']', at + key.size());
        if (close == std::string::npos)
            return std::nullopt;
        int n = -1;
        const auto [ptr, ec] = std::from_chars(field.data() + at + key.size(), field.data() + close, n);
        if (ec != std::errc() || ptr != field.data() + close || n < 0)
            return std::nullopt;
        path.push_back(n);
        at = close + 1;
        if (field.compare(at, key.size() + 1, "." + key) != 0)
            break;
        ++at; // past the '.' between a repeat and its steps
    }
    if (path.empty())
        return std::nullopt;
    if (rest)
        *rest = field.substr(at);
    return path;
}

const StepSpec* StepTree::find(const std::vector<StepSpec>& steps, const StepPath& path)
{
    const std::vector<StepSpec>* list = siblings(steps, path);
    return list ? &(*list)[path.back()] : nullptr;
}

StepSpec* StepTree::find(std::vector<StepSpec>& steps, const StepPath& path)
{
    std::vector<StepSpec>* list = siblings(steps, path);
    return list ? &(*list)[path.back()] : nullptr;
}

std::vector<StepPath> StepTree::all(const std::vector<StepSpec>& steps)
{
    std::vector<StepPath> out;
    StepPath at;
    collect(steps, at, out);
    return out;
}

std::vector<std::string> StepTree::indicesAround(const std::vector<StepSpec>& steps, const StepPath& path)
{
    std::vector<std::string> names;
    for (std::size_t d = 1; d < path.size(); ++d) {
        const StepSpec* outer = find(steps, StepPath(path.begin(), path.begin() + d));
        if (outer && !outer->index.empty())
            names.push_back(outer->index);
    }
    return names;
}

StepPath StepTree::insertAfter(std::vector<StepSpec>& steps, const StepPath& path, StepSpec step)
{
    std::vector<StepSpec>* list = siblings(steps, path);
    if (!list) {
        steps.push_back(std::move(step));
        return {int(steps.size()) - 1};
    }
    list->insert(list->begin() + path.back() + 1, std::move(step));
    StepPath at = path;
    ++at.back();
    return at;
}

StepPath StepTree::wrap(std::vector<StepSpec>& steps, const StepPath& path, StepSpec repeat)
{
    std::vector<StepSpec>* list = siblings(steps, path);
    if (!list)
        return path;
    StepSpec& s = (*list)[path.back()];
    repeat.steps = {std::move(s)};
    s = std::move(repeat);
    return path;
}

StepPath StepTree::duplicate(std::vector<StepSpec>& steps, const StepPath& path)
{
    const StepSpec* s = find(steps, path);
    return s ? insertAfter(steps, path, *s) : path;
}

// The last step of the document, or the only one of a repeat, stays: a document of
// steps has at least one, and a repeat is never empty.
bool StepTree::canRemove(const std::vector<StepSpec>& steps, const StepPath& path)
{
    const std::vector<StepSpec>* list = siblings(steps, path);
    return list && list->size() > 1;
}

bool StepTree::canMoveUp(const std::vector<StepSpec>& steps, const StepPath& path)
{
    return siblings(steps, path) && path.back() > 0;
}

bool StepTree::canMoveDown(const std::vector<StepSpec>& steps, const StepPath& path)
{
    const std::vector<StepSpec>* list = siblings(steps, path);
    return list && path.back() + 1 < int(list->size());
}

bool StepTree::canMoveInto(const std::vector<StepSpec>& steps, const StepPath& path)
{
    const std::vector<StepSpec>* list = siblings(steps, path);
    return list && path.back() > 0 && isRepeat((*list)[path.back() - 1]) && list->size() > 1;
}

bool StepTree::canMoveOut(const std::vector<StepSpec>& steps, const StepPath& path)
{
    const std::vector<StepSpec>* list = siblings(steps, path);
    return list && path.size() > 1 && list->size() > 1;
}

StepPath StepTree::remove(std::vector<StepSpec>& steps, const StepPath& path)
{
    if (!canRemove(steps, path))
        return path;
    std::vector<StepSpec>* list = siblings(steps, path);
    list->erase(list->begin() + path.back());
    StepPath at = path;
    if (at.back() >= int(list->size()))
        --at.back(); // the last one went: its predecessor
    return at;
}

StepPath StepTree::moveUp(std::vector<StepSpec>& steps, const StepPath& path)
{
    if (!canMoveUp(steps, path))
        return path;
    std::vector<StepSpec>* list = siblings(steps, path);
    std::swap((*list)[path.back()], (*list)[path.back() - 1]);
    StepPath at = path;
    --at.back();
    return at;
}

StepPath StepTree::moveDown(std::vector<StepSpec>& steps, const StepPath& path)
{
    if (!canMoveDown(steps, path))
        return path;
    std::vector<StepSpec>* list = siblings(steps, path);
    std::swap((*list)[path.back()], (*list)[path.back() + 1]);
    StepPath at = path;
    ++at.back();
    return at;
}

StepPath StepTree::moveInto(std::vector<StepSpec>& steps, const StepPath& path)
{
    if (!canMoveInto(steps, path))
        return path;
    std::vector<StepSpec>* list = siblings(steps, path);
    StepSpec moved = std::move((*list)[path.back()]);
    list->erase(list->begin() + path.back());
    std::vector<StepSpec>& inner = (*list)[path.back() - 1].steps;
    inner.push_back(std::move(moved));
    StepPath at = path;
    --at.back();
    at.push_back(int(inner.size()) - 1);
    return at;
}

StepPath StepTree::moveOut(std::vector<StepSpec>& steps, const StepPath& path)
{
    if (!canMoveOut(steps, path))
        return path;
    std::vector<StepSpec>* list = siblings(steps, path);
    StepSpec moved = std::move((*list)[path.back()]);
    list->erase(list->begin() + path.back());
    StepPath parent(path.begin(), path.end() - 1);
    return insertAfter(steps, parent, std::move(moved));
}

} // namespace kw
