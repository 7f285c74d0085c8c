#include "serve/DebugReplyJson.hpp"

#include "util/Error.hpp"

namespace kw {

namespace {

const char* stateName(debug::LaneGroup::State s)
{
    switch (s) {
    case debug::LaneGroup::State::Active: return "active";
    case debug::LaneGroup::State::Diverged: return "diverged";
    case debug::LaneGroup::State::AtBarrier: return "barrier";
    case debug::LaneGroup::State::Exited: return "exited";
    }
    return "exited";
}

// The file's name alone, as the console's text names it.
std::string fileName(const std::string& path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

DebugReplyJson::DebugReplyJson(const debug::DebugSession& session, const debug::DebugConsole& console)
    : session_(session)
    , console_(console)
{
}

nlohmann::json DebugReplyJson::location(const debug::Location& where) const
{
    return {{"file", fileName(where.file)},
            {"line", where.line},
            {"pc", where.pc},
            {"function", where.function},
            {"instruction", where.instruction}};
}

nlohmann::json DebugReplyJson::stop(const debug::Stop& s) const
{
    nlohmann::json j = {{"reason", debug::toString(s.reason)},
                        {"position", s.position},
                        {"block", s.block},
                        {"warp", s.warp},
                        {"lane", s.lane},
                        {"message", s.message}};
    if (s.reason == debug::StopReason::Breakpoint)
        j["breakpoint"] = s.breakpoint;
    if (s.watch)
        j["watch"] = {{"id", s.watch->watch},     {"write", s.watch->write}, {"block", s.watch->block},
                      {"warp", s.watch->warp},    {"lane", s.watch->lane},   {"where", location(s.watch->where)},
                      {"old", s.watch->oldValue}, {"new", s.watch->newValue}};
    return j;
}

nlohmann::json DebugReplyJson::warp(const debug::WarpView& w) const
{
    nlohmann::json groups = nlohmann::json::array();
    for (const debug::LaneGroup& g : w.groups)
        groups.push_back({{"state", stateName(g.state)}, {"lanes", g.lanes}, {"where", location(g.where)}});
    return {{"block", w.block},           {"warp", w.warp},  {"exists", w.exists},
            {"active", w.active},         {"done", w.done},  {"at_barrier", w.atBarrier},
            {"where", location(w.where)}, {"groups", groups}};
}

nlohmann::json DebugReplyJson::lanes(const std::vector<std::string>& expressions) const
{
    std::vector<std::vector<debug::LaneValue>> columns;
    for (const std::string& e : expressions)
        columns.push_back(session_.lanes(e));
    nlohmann::json values = nlohmann::json::array();
    for (std::size_t c = 0; c < columns.size(); ++c) {
        nlohmann::json column = nlohmann::json::array();
        for (const debug::LaneValue& v : columns[c])
            column.push_back(v.exists ? nlohmann::json{{"number", v.number}, {"text", v.text}} : nlohmann::json());
        values.push_back(std::move(column));
    }
    return {{"expressions", expressions}, {"values", values}};
}

nlohmann::json DebugReplyJson::locals() const
{
    nlohmann::json out = nlohmann::json::array();
    for (const debug::SourceVariableView& v : debug::flattened(session_.locals())) {
        // A variable without a place here carries no value, only why: never a stale number.
        nlohmann::json values = nlohmann::json::array();
        for (const debug::LaneValue& l : v.lanes)
            values.push_back(l.exists && v.available ? nlohmann::json{{"number", l.number}, {"text", l.text}}
                                                     : nlohmann::json());
        out.push_back({{"name", v.name},
                       {"type", v.type},
                       {"line", v.line},
                       {"parameter", v.parameter},
                       {"available", v.available},
                       {"why", v.why},
                       {"values", std::move(values)}});
    }
    return out;
}

nlohmann::json DebugReplyJson::shared(const debug::DebugConsole::SharedRange& range) const
{
    nlohmann::json words = nlohmann::json::array();
    for (const debug::SharedWord& w : session_.shared(range.type, range.offset, range.count))
        words.push_back({{"offset", w.offset}, {"bank", w.bank}, {"value", w.value}, {"text", w.text}});
    return {{"block", session_.focus().block}, {"type", toString(range.type)}, {"words", words}};
}

nlohmann::json DebugReplyJson::ptx() const
{
    nlohmann::json code = nlohmann::json::array();
    const std::uint32_t count = session_.instructions();
    for (std::uint32_t pc = 0; pc < count; ++pc)
        code.push_back(location(session_.locate(pc)));
    return code;
}

nlohmann::json DebugReplyJson::reply(const std::string& command, const std::string& text) const
{
    const debug::Focus f = session_.focus();
    nlohmann::json r = {{"text", text},
                        {"stop", stop(session_.stop())},
                        {"ended", session_.ended()},
                        {"focus", {{"block", f.block}, {"warp", f.warp}, {"lane", f.lane}}},
                        {"blocks", session_.blocks()},
                        {"warps_per_block", session_.warpsPerBlock()},
                        {"shared_bytes", session_.sharedBytes()},
                        {"source_variables", session_.hasSourceVariables()},
                        {"variables", session_.variablesMode()}};
    // Once every block has run there is no warp to show.
    if (session_.stop().reason != debug::StopReason::Finished) {
        r["warp"] = warp(session_.warp());
        nlohmann::json warps = nlohmann::json::array();
        for (const debug::WarpView& w : session_.warps())
            warps.push_back(warp(w));
        r["warps"] = std::move(warps);
        nlohmann::json frames = nlohmann::json::array();
        for (const debug::Frame& fr : session_.backtrace())
            frames.push_back({{"function", fr.function}, {"where", location(fr.where)}});
        r["frames"] = std::move(frames);
        if (session_.hasSourceVariables())
            r["locals"] = locals();
    }
    nlohmann::json breakpoints = nlohmann::json::array();
    for (const debug::BreakpointInfo& b : session_.breakpoints()) {
        breakpoints.push_back({{"id", b.id},
                               {"file", fileName(b.file)},
                               {"line", b.line},
                               {"asked_line", b.spec.line},
                               {"condition", b.spec.condition},
                               {"ignore", b.spec.ignore},
                               {"all", b.spec.mode == debug::BreakMode::AllLanes},
                               {"hits", b.hits}});
        if (b.spec.pc) // `break *PC`: at an instruction
            breakpoints.back()["pc"] = *b.spec.pc;
    }
    r["breakpoints"] = std::move(breakpoints);
    nlohmann::json watches = nlohmann::json::array();
    for (const debug::WatchInfo& w : session_.watches())
        watches.push_back({{"id", w.id},
                           {"buffer", w.spec.buffer},
                           {"index", w.spec.index},
                           {"type", toString(w.spec.type)},
                           {"reads", w.spec.reads},
                           {"hits", w.hits}});
    r["watches"] = std::move(watches);

    // The views asked for, as values; a refused command has only its text.
    if (text.rfind("error: ", 0) == 0)
        return r;
    const auto [name, args] = debug::DebugConsole::split(command);
    if (name == "lanes")
        r["lanes"] = lanes(debug::DebugConsole::laneExpressions(args));
    else if (name == "shared")
        r["shared"] = shared(console_.sharedRange(args));
    else if (name == "ptx")
        r["ptx"] = ptx();
    return r;
}

} // namespace kw
