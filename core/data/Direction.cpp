#include "data/Direction.hpp"

namespace kw {

namespace {

constexpr struct {
    Direction d;
    const char* name;
} kDirections[] = {{Direction::In, "in"}, {Direction::Out, "out"}, {Direction::InOut, "inout"}};

} // namespace

const char* toString(Direction d)
{
    for (const auto& e : kDirections)
        if (e.d == d)
            return e.name;
    return "inout";
}

std::optional<Direction> parseDirection(std::string_view s)
{
    for (const auto& e : kDirections)
        if (s == e.name)
            return e.d;
    return std::nullopt;
}

} // namespace kw
