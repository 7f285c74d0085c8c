#include "grade/GradeCase.hpp"

namespace kw::grade {
namespace {

// SplitMix64's finaliser: neighbouring inputs give unrelated outputs.
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

} // namespace

std::string GradeCase::size() const
{
    std::string text;
    for (const auto& [name, value] : variables)
        text += (text.empty() ? "" : " ") + name + "=" + value;
    return text;
}

std::uint64_t GradeCase::bufferSeed(std::size_t buffer, std::uint64_t secret) const
{
    // The initialiser's seed field is a non-negative integer a double can hold.
    return mix(mix(mix(seed) ^ secret) + buffer) >> 11;
}

Document GradeCase::document(const Document& base, std::uint64_t secret) const
{
    Document doc = base;
    for (const auto& [name, value] : variables)
        for (auto& variable : doc.variables)
            if (variable.first == name)
                variable.second = value;
    for (std::size_t b = 0; b < doc.buffers.size(); ++b) {
        Initialiser& init = doc.buffers[b].init;
        if (init.kind == Initialiser::Kind::Uniform || init.kind == Initialiser::Kind::Normal)
            init.seed = bufferSeed(b, secret);
    }
    return doc;
}

} // namespace kw::grade
