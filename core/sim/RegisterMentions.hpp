#pragma once
// Where a function's code names each register: the first and last pc of an instruction
// that has it in any operand (a destination, a source, an address or a guard). A register
// named only inside a stretch of code is read nowhere else.
#include "sim/PtxModule.hpp"

#include <cstdint>
#include <vector>

namespace kw::sim {

class RegisterMentions {
public:
    explicit RegisterMentions(const Function& fn);

    // Whether every instruction naming register r lies in [from, to).
    bool onlyWithin(std::uint32_t r, std::uint32_t from, std::uint32_t to) const
    {
        return r < first_.size() && first_[r] >= from && last_[r] < to;
    }

private:
    std::vector<std::uint32_t> first_, last_;
};

} // namespace kw::sim
