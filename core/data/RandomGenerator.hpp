#pragma once
// A fixed pseudo-random generator (xoshiro256**, seeded through SplitMix64) so a
// seed gives the same buffer on every machine and compiler; the C++ standard
// distributions are implementation-defined and would not.
#include <array>
#include <cstdint>

namespace kw {

class RandomGenerator {
public:
    explicit RandomGenerator(std::uint64_t seed);

    std::uint64_t next();
    // Uniform in [0, 1) with 53 random bits.
    double uniform();
    // Standard normal (Box–Muller; the second value of each pair is kept for the next call).
    double normal();

private:
    std::array<std::uint64_t, 4> s_{};
    double spare_ = 0.0;
    bool hasSpare_ = false;
};

} // namespace kw
