#include "doc/Document.hpp"

namespace kw {

namespace {

constexpr struct {
    Initializer::Kind kind;
    const char* name;
} kKinds[] = {
    {Initializer::Kind::Zeros, "zeros"},
    {Initializer::Kind::Fill, "fill"},
    {Initializer::Kind::Arange, "arange"},
    {Initializer::Kind::Linspace, "linspace"},
    {Initializer::Kind::Uniform, "uniform"},
    {Initializer::Kind::Normal, "normal"},
    {Initializer::Kind::Expression, "expression"},
    {Initializer::Kind::File, "file"},
    {Initializer::Kind::Copy, "copy"},
};

} // namespace

const char* toString(Initializer::Kind kind)
{
    for (const auto& e : kKinds)
        if (e.kind == kind)
            return e.name;
    return "zeros";
}

std::optional<Initializer::Kind> parseInitializerKind(std::string_view s)
{
    for (const auto& e : kKinds)
        if (s == e.name)
            return e.kind;
    return std::nullopt;
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

} // namespace kw
