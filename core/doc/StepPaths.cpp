#include "doc/StepPaths.hpp"

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

} // namespace kw
