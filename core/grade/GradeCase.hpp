#pragma once
// One named test case of an exercise: the document's variables it sets (the sizes) and
// its seed. The case's document is the exercise's with those values, every random
// initialiser reseeded from the case's seed and the run's secret seed, so a solution
// cannot be written for the inputs of one run.
#include "doc/Document.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kw::grade {

class GradeCase {
public:
    std::string name;
    std::vector<std::pair<std::string, std::string>> variables; // name, expression
    std::uint64_t seed = 0;

    // "n=1023" (the variables it sets), for the report's size column.
    std::string size() const;
    // The seed of buffer `buffer` in this case under `secret`.
    std::uint64_t bufferSeed(std::size_t buffer, std::uint64_t secret) const;
    // `base` with this case's variables and seeds.
    Document document(const Document& base, std::uint64_t secret) const;
};

} // namespace kw::grade
