#include "run/StraightLoop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace kw {

std::vector<std::string> namesIn(const std::string& text)
{
    std::vector<std::string> names;
    const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t i = 0; i < text.size();) {
        if (!word(text[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && word(text[end]))
            ++end;
        // A number (1e5, 0x10) is no name.
        if (!std::isdigit(static_cast<unsigned char>(text[i])))
            names.push_back(text.substr(i, end - i));
        i = end;
    }
    return names;
}

namespace {

std::vector<std::string> expressionsOf(const StepSpec& s)
{
    std::vector<std::string> texts;
    switch (s.kind) {
    case StepSpec::Kind::Launch:
        texts.insert(texts.end(), s.launch.grid.begin(), s.launch.grid.end());
        texts.insert(texts.end(), s.launch.block.begin(), s.launch.block.end());
        texts.push_back(s.launch.sharedBytes);
        for (const ArgSpec& a : s.args) {
            texts.push_back(a.value);
            texts.push_back(a.offset);
        }
        break;
    case StepSpec::Kind::Copy: texts = {s.count, s.fromOffset, s.toOffset}; break;
    case StepSpec::Kind::Fill: texts = {s.value, s.count, s.toOffset}; break;
    default: break;
    }
    return texts;
}

} // namespace

StraightLoop StraightLoop::of(const StepSpec& loop, const std::vector<std::string>& buffers,
                              const std::set<std::string>& printing)
{
    StraightLoop v;
    if (loop.kind != StepSpec::Kind::Repeat) {
        v.why_ = loop.kind == StepSpec::Kind::RepeatUntil ? "its condition reads the buffers after every pass"
                                                          : "it is no loop";
        return v;
    }
    for (std::size_t i = 0; i < loop.steps.size() && v.why_.empty(); ++i) {
        const StepSpec& s = loop.steps[i];
        const std::string which = fmt::format("its step {}", i + 1);
        if (s.kind == StepSpec::Kind::Repeat || s.kind == StepSpec::Kind::RepeatUntil) {
            v.why_ = which + " is a loop";
        } else if (!s.checks.empty()) {
            v.why_ = which + " has checks, which read the buffers after every pass";
        } else if (s.kind == StepSpec::Kind::Launch && printing.count(s.kernel)) {
            v.why_ = fmt::format("{} launches {}, which prints", which, s.kernel);
        } else {
            if (s.kind != StepSpec::Kind::Swap)
                ++v.ops_;
            for (const std::string& text : expressionsOf(s))
                for (const std::string& name : namesIn(text)) {
                    if (std::find(buffers.begin(), buffers.end(), name) != buffers.end())
                        v.why_ = fmt::format("{} reads the buffer {} while the loop runs", which, name);
                    else if (!loop.index.empty() && name == loop.index)
                        v.usesIndex_ = true;
                }
        }
    }
    if (v.why_.empty() && v.ops_ == 0)
        v.why_ = "it launches, copies and fills nothing";
    return v;
}

} // namespace kw
