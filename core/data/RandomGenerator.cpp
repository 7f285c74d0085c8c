#include "data/RandomGenerator.hpp"

#include <cmath>
#include <numbers>

namespace kw {

namespace {

std::uint64_t splitMix64(std::uint64_t& x)
{
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

} // namespace

RandomGenerator::RandomGenerator(std::uint64_t seed)
{
    for (auto& word : s_)
        word = splitMix64(seed);
}

std::uint64_t RandomGenerator::next()
{
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double RandomGenerator::uniform() { return double(next() >> 11) * 0x1.0p-53; }

double RandomGenerator::normal()
{
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    // u1 in (0, 1] keeps the logarithm finite.
    const double u1 = double((next() >> 11) + 1) * 0x1.0p-53;
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * std::numbers::pi * u2;
    spare_ = r * std::sin(angle);
    hasSpare_ = true;
    return r * std::cos(angle);
}

} // namespace kw
