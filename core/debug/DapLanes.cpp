#include "debug/DapLanes.hpp"

namespace kw::debug {

namespace {

const char* stateName(LaneGroup::State s)
{
    switch (s) {
    case LaneGroup::State::Active: return "active";
    case LaneGroup::State::Diverged: return "diverged";
    case LaneGroup::State::AtBarrier: return "atBarrier";
    case LaneGroup::State::Exited: return "exited";
    }
    return "absent";
}

} // namespace

nlohmann::json DapLanes::table(const DebugSession& session, std::vector<std::string> expressions)
{
    if (expressions.empty())
        for (const SourceVariableView& v : session.locals())
            if (v.available && v.scalar)
                expressions.push_back(v.name);
    const WarpView w = session.warp();
    std::vector<std::vector<LaneValue>> columns;
    for (const std::string& e : expressions)
        columns.push_back(session.lanes(e));
    nlohmann::json lanes = nlohmann::json::array();
    for (std::uint32_t l = 0; l < 32; ++l) {
        const char* state = "absent";
        for (const LaneGroup& g : w.groups)
            if ((g.lanes >> l) & 1)
                state = stateName(g.state);
        nlohmann::json values = nlohmann::json::array();
        for (const std::vector<LaneValue>& c : columns) {
            const LaneValue& v = c.at(l);
            values.push_back(
                {{"value", v.exists ? nlohmann::json(v.number) : nlohmann::json(nullptr)}, {"text", v.text}});
        }
        lanes.push_back(
            {{"lane", l}, {"thread", std::uint64_t(w.warp) * 32 + l}, {"state", state}, {"values", std::move(values)}});
    }
    return {{"block", w.block}, {"warp", w.warp}, {"columns", expressions}, {"lanes", std::move(lanes)}};
}

} // namespace kw::debug
