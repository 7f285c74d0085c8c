#include "sim/LaunchObservers.hpp"

#include "sim/BlockRunner.hpp"
#include "sim/LaunchState.hpp"

namespace kw::sim {

LaunchObservers::LaunchObservers(LaunchState& L)
{
    if (L.raceCheck)
        race_ = std::make_unique<RaceDetector>(L);
    if (L.check != CheckTool::None) {
        const auto warps = std::uint32_t((L.block.volume() + 31) / 32);
        checks_ = std::make_unique<BlockChecks>(L, warps, L.fn->localBytes);
        if (race_ && L.check == CheckTool::Racecheck)
            race_->reportTo(checks_.get());
    }
    if (L.profile)
        profile_ = std::make_unique<ProfileCollector>(*L.fn, L.capture);
}

void LaunchObservers::attachTo(BlockRunner& runner)
{
    if (checks_)
        runner.observe(*checks_);
    if (race_)
        runner.observe(*race_);
    if (profile_)
        runner.observe(*profile_);
}

} // namespace kw::sim
