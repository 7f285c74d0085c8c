#include "debugger/DebugReply.hpp"

namespace kw {

namespace {

using json = nlohmann::json;

QString str(const json& j, const char* key) { return QString::fromStdString(j.at(key).get<std::string>()); }

DebugLocation location(const json& j)
{
    DebugLocation l;
    l.file = str(j, "file");
    l.function = str(j, "function");
    l.instruction = str(j, "instruction");
    l.line = j.at("line").get<int>();
    l.pc = j.at("pc").get<int>();
    return l;
}

DebugWarp warpOf(const json& j)
{
    DebugWarp w;
    w.block = j.at("block").get<std::uint64_t>();
    w.warp = j.at("warp").get<int>();
    w.exists = j.at("exists").get<std::uint32_t>();
    w.active = j.at("active").get<std::uint32_t>();
    w.done = j.at("done").get<bool>();
    w.atBarrier = j.at("at_barrier").get<bool>();
    w.where = location(j.at("where"));
    for (const json& g : j.at("groups"))
        w.groups.push_back({str(g, "state"), g.at("lanes").get<std::uint32_t>(), location(g.at("where"))});
    return w;
}

} // namespace

QString DebugWarp::laneState(int lane) const
{
    for (const Group& g : groups)
        if ((g.lanes >> lane) & 1u)
            return g.state;
    return {};
}

DebugReply DebugReply::fromJson(const json& r)
{
    DebugReply d;
    d.text = str(r, "text");
    const json& s = r.at("stop");
    d.stop.reason = str(s, "reason");
    d.stop.message = str(s, "message");
    d.stop.position = s.at("position").get<std::uint64_t>();
    d.stop.block = s.at("block").get<std::uint64_t>();
    d.stop.warp = s.at("warp").get<int>();
    d.stop.lane = s.at("lane").get<int>();
    if (s.contains("watch")) {
        const json& w = s.at("watch");
        const DebugLocation at = location(w.at("where"));
        d.stop.watchWriter = QString("block %1 warp %2 lane %3 at %4:%5")
                                 .arg(w.at("block").get<std::uint64_t>())
                                 .arg(w.at("warp").get<int>())
                                 .arg(w.at("lane").get<int>())
                                 .arg(at.file)
                                 .arg(at.line);
    }
    d.ended = r.at("ended").get<bool>();
    const json& f = r.at("focus");
    d.focusBlock = f.at("block").get<std::uint64_t>();
    d.focusWarp = f.at("warp").get<int>();
    d.focusLane = f.at("lane").get<int>();
    d.blocks = r.at("blocks").get<std::uint64_t>();
    d.warpsPerBlock = r.at("warps_per_block").get<int>();
    d.sharedBytes = r.at("shared_bytes").get<std::uint32_t>();
    if (r.contains("warp"))
        d.warp = warpOf(r.at("warp"));
    if (r.contains("warps"))
        for (const json& w : r.at("warps"))
            d.warps.push_back(warpOf(w));
    if (r.contains("frames"))
        for (const json& fr : r.at("frames"))
            d.frames.push_back({str(fr, "function"), location(fr.at("where"))});
    for (const json& b : r.at("breakpoints"))
        d.breakpoints.push_back({b.at("id").get<int>(), b.at("line").get<int>(), b.at("asked_line").get<int>(),
                                 str(b, "condition"), b.at("ignore").get<std::uint64_t>(),
                                 b.at("hits").get<std::uint64_t>(), b.at("all").get<bool>(),
                                 b.contains("pc") ? b.at("pc").get<int>() : -1});
    for (const json& w : r.at("watches"))
        d.watches.push_back({w.at("id").get<int>(), str(w, "buffer"), w.at("index").get<std::uint64_t>(),
                             str(w, "type"), w.at("reads").get<bool>(), w.at("hits").get<std::uint64_t>()});
    if (r.contains("locals"))
        for (const json& v : r.at("locals")) {
            DebugLocal local;
            local.name = str(v, "name");
            local.type = str(v, "type");
            local.line = v.at("line").get<int>();
            local.parameter = v.at("parameter").get<bool>();
            local.available = v.at("available").get<bool>();
            local.why = str(v, "why");
            local.texts.resize(32);
            local.numbers.assign(32, 0.0);
            const json& values = v.at("values");
            for (std::size_t lane = 0; lane < 32 && lane < values.size(); ++lane)
                if (!values[lane].is_null()) {
                    local.texts[lane] = str(values[lane], "text");
                    local.numbers[lane] = values[lane].at("number").get<double>();
                }
            d.locals.push_back(std::move(local));
        }
    if (r.contains("lanes")) {
        const json& l = r.at("lanes");
        DebugLanes lanes;
        for (const json& e : l.at("expressions"))
            lanes.expressions << QString::fromStdString(e.get<std::string>());
        for (const json& column : l.at("values")) {
            std::vector<QString> texts(32);
            std::vector<double> numbers(32, 0.0);
            for (std::size_t lane = 0; lane < 32 && lane < column.size(); ++lane)
                if (!column[lane].is_null()) {
                    texts[lane] = str(column[lane], "text");
                    numbers[lane] = column[lane].at("number").get<double>();
                }
            lanes.texts.push_back(std::move(texts));
            lanes.numbers.push_back(std::move(numbers));
        }
        d.lanes = std::move(lanes);
    }
    if (r.contains("shared")) {
        const json& sh = r.at("shared");
        d.sharedType = str(sh, "type");
        for (const json& w : sh.at("words"))
            d.shared.push_back({w.at("offset").get<std::uint32_t>(), w.at("bank").get<std::uint32_t>(),
                                w.at("value").get<double>(), str(w, "text")});
    }
    if (r.contains("ptx")) {
        d.ptx.emplace();
        for (const json& at : r.at("ptx"))
            d.ptx->push_back(location(at));
    }
    return d;
}

} // namespace kw
