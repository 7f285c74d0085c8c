#pragma once
// A point in time work must end by: the loops of a run that are not the kernel (checks
// over every element, per-element initialisers) test it every few thousand steps, so a
// document's time limit holds for them too.
#include <chrono>
#include <string>

namespace kw {

class Deadline {
public:
    // `seconds` from now; a limit of 0 or less, or one too large to represent, is none.
    explicit Deadline(double seconds);
    static Deadline none() { return Deadline(0); }

    bool passed() const;
    // Throws kw::Error(Limit) "WHAT did not finish within the time limit of N s" once passed.
    void check(const std::string& what) const;
    // The same, every 4096th step only, for the inside of a loop over elements.
    void checkEvery(std::size_t step, const std::string& what) const
    {
        if ((step & 4095) == 0)
            check(what);
    }

private:
    bool limited_ = false;
    double seconds_ = 0;
    std::chrono::steady_clock::time_point at_;
};

} // namespace kw
