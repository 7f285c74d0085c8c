#include "doc/StepPaths.hpp"

#include <algorithm>
#include <utility>

namespace kw {

namespace {

void listInto(const std::vector<StepSpec>& steps, const std::string& parent,
              std::vector<std::pair<std::string, const StepSpec*>>& out)
{
    for (std::size_t i = 0; i < steps.size(); ++i) {
        std::string path = StepPaths::child(parent, i);
        out.emplace_back(path, &steps[i]);
        listInto(steps[i].steps, path, out);
    }
}

} // namespace

std::string StepPaths::child(const std::string& parent, std::size_t i)
{
    return (parent.empty() ? std::string() : parent + ".") + std::to_string(i + 1);
}

std::vector<std::pair<std::string, const StepSpec*>> StepPaths::list(const std::vector<StepSpec>& steps)
{
    std::vector<std::pair<std::string, const StepSpec*>> out;
    listInto(steps, "", out);
    return out;
}

std::optional<std::vector<std::size_t>> StepPaths::places(const std::string& path)
{
    std::vector<std::size_t> out;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('.', start), path.size());
        const std::string part = path.substr(start, end - start);
        if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string::npos
            || std::stoul(part) == 0)
            return std::nullopt;
        out.push_back(std::stoul(part) - 1);
        start = end + 1;
    }
    return out;
}

const StepSpec* StepPaths::find(const std::vector<StepSpec>& steps, const std::string& path)
{
    const auto places = StepPaths::places(path);
    if (!places)
        return nullptr;
    const std::vector<StepSpec>* level = &steps;
    const StepSpec* step = nullptr;
    for (std::size_t i : *places) {
        if (i >= level->size())
            return nullptr;
        step = &(*level)[i];
        level = &step->steps;
    }
    return step;
}

StepSpec* StepPaths::find(std::vector<StepSpec>& steps, const std::string& path)
{
    return const_cast<StepSpec*>(find(std::as_const(steps), path));
}

} // namespace kw
