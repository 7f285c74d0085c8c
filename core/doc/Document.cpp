#include "doc/Document.hpp"

namespace kw {

namespace {

constexpr struct {
    Initialiser::Kind kind;
    const char* name;
} kKinds[] = {
    {Initialiser::Kind::Zeros, "zeros"},
    {Initialiser::Kind::Fill, "fill"},
    {Initialiser::Kind::Arange, "arange"},
    {Initialiser::Kind::Linspace, "linspace"},
    {Initialiser::Kind::Uniform, "uniform"},
    {Initialiser::Kind::Normal, "normal"},
    {Initialiser::Kind::Expression, "expression"},
    {Initialiser::Kind::File, "file"},
    {Initialiser::Kind::Copy, "copy"},
};

} // namespace

const char* toString(Initialiser::Kind kind)
{
    for (const auto& e : kKinds)
        if (e.kind == kind)
            return e.name;
    return "zeros";
}

std::optional<Initialiser::Kind> parseInitialiserKind(std::string_view s)
{
    for (const auto& e : kKinds)
        if (s == e.name)
            return e.kind;
    return std::nullopt;
}

const char* toString(StepSpec::Kind kind)
{
    switch (kind) {
    case StepSpec::Kind::Launch: return "launch";
    case StepSpec::Kind::Copy: return "copy";
    case StepSpec::Kind::Fill: return "fill";
    case StepSpec::Kind::Swap: return "swap";
    case StepSpec::Kind::Repeat: return "repeat";
    case StepSpec::Kind::RepeatUntil: return "repeat_until";
    }
    return "launch";
}

std::filesystem::path Document::baseDir() const
{
    if (path.empty())
        return {};
    // "doc.kwb" lives in the working folder: its folder is that, not "".
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    return (ec ? path : absolute).parent_path();
}

const BufferSpec* Document::findBuffer(const std::string& name) const
{
    for (const auto& b : buffers)
        if (b.name == name)
            return &b;
    return nullptr;
}

std::vector<std::string> Document::kernelNames() const
{
    return isSequence() ? kernels : std::vector<std::string>{kernel};
}

} // namespace kw
