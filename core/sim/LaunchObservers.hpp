#pragma once
// The observers a launch's settings ask for, one set per worker: the profile collector
// (LaunchState::profile), the check's BlockChecks (LaunchState::check) and the race
// detector (LaunchState::raceCheck, or racecheck, whose hazards become findings).
// Made before the worker's first block and attached to its BlockRunner; the checks merge
// their findings into the launch's when the set is destroyed.
#include "sim/ProfileCollector.hpp"
#include "sim/RaceDetector.hpp"
#include "sim/SimChecks.hpp"

#include <memory>

namespace kw::sim {

class BlockRunner;
struct LaunchState;

class LaunchObservers {
public:
    explicit LaunchObservers(LaunchState& launch);
    void attachTo(BlockRunner& runner);
    // The worker's counters when the launch is profiled (null otherwise).
    std::unique_ptr<ProfileCollector> takeProfile() { return std::move(profile_); }

private:
    std::unique_ptr<RaceDetector> race_;
    std::unique_ptr<BlockChecks> checks_;
    std::unique_ptr<ProfileCollector> profile_;
};

} // namespace kw::sim
