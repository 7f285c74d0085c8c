#include "debug/DebugConsole.hpp"

#include "util/Error.hpp"
#include "util/Text.hpp"

#include <charconv>
#include <fmt/format.h>

namespace kw::debug {

namespace {

[[noreturn]] void usage(const std::string& why) { throw Error(ErrorCategory::Usage, why); }

std::uint64_t wholeNumber(std::string_view text, const char* what)
{
    text = trim(text);
    std::uint64_t v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
        usage(fmt::format("{}: \"{}\" is not a whole number", what, std::string(text)));
    return v;
}

std::vector<std::string> words(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ')
            ++i;
        const std::size_t j = text.find(' ', i);
        const std::size_t end = j == std::string_view::npos ? text.size() : j;
        if (end > i)
            out.emplace_back(text.substr(i, end - i));
        i = end;
    }
    return out;
}

// A command's aliases to its one name.
std::string canonical(const std::string& c)
{
    static const std::pair<const char*, const char*> aliases[] = {
        {"b", "break"},           {"c", "continue"},      {"s", "step"},
        {"si", "stepi"},          {"n", "next"},          {"p", "print"},
        {"bt", "backtrace"},      {"rs", "reverse-step"}, {"rc", "reverse-continue"},
        {"rsi", "reverse-stepi"}, {"q", "quit"},          {"d", "delete"},
    };
    for (const auto& [alias, name] : aliases)
        if (c == alias)
            return name;
    return c;
}

} // namespace

std::string laneList(std::uint32_t lanes)
{
    std::string out;
    for (int l = 0; l < 32;) {
        if (!((lanes >> l) & 1)) {
            ++l;
            continue;
        }
        int e = l;
        while (e + 1 < 32 && ((lanes >> (e + 1)) & 1))
            ++e;
        if (!out.empty())
            out += ',';
        out += e == l ? fmt::format("{}", l) : fmt::format("{}-{}", l, e);
        l = e + 1;
    }
    return out.empty() ? "none" : out;
}

std::string laneMap(const WarpView& w)
{
    std::string map(32, '.');
    for (const LaneGroup& g : w.groups) {
        const char c = g.state == LaneGroup::State::Active ? '#'
            : g.state == LaneGroup::State::Diverged        ? 'd'
            : g.state == LaneGroup::State::AtBarrier       ? 'b'
                                                           : 'x';
        for (int l = 0; l < 32; ++l)
            if ((g.lanes >> l) & 1)
                map[std::size_t(l)] = c;
    }
    return map;
}

bool DebugConsole::isCommand(const std::string& word)
{
    static const std::string names
        = " break delete watch rwatch continue step stepi next finish barrier reconverge "
          "reverse-step reverse-stepi reverse-continue goto where block warp thread lane lanes print "
          "shared ptx backtrace info help quit ";
    return !word.empty() && names.find(" " + canonical(word) + " ") != std::string::npos;
}

DebugConsole::DebugConsole(DebugSession& session)
    : session_(session)
{
}

std::pair<std::string, std::string> DebugConsole::split(const std::string& line)
{
    const std::string text(trim(line));
    const std::size_t space = text.find(' ');
    return {canonical(text.substr(0, space)),
            space == std::string::npos ? std::string() : std::string(trim(text.substr(space + 1)))};
}

std::string DebugConsole::execute(const std::string& line)
{
    const std::string text(trim(line));
    if (text.empty() || text[0] == '#')
        return {};
    const auto [command, args] = split(text);
    try {
        return run(command, args);
    } catch (const std::exception& e) {
        return fmt::format("error: {}\n", e.what());
    }
}

std::string DebugConsole::locationText(const Location& where) const
{
    if (where.line == 0)
        return fmt::format("pc {} (no line)", where.pc);
    // The file's name alone: the transcript does not depend on where the document lies.
    const auto slash = where.file.find_last_of("/\\");
    return fmt::format("{}:{}", slash == std::string::npos ? where.file : where.file.substr(slash + 1), where.line);
}

std::string DebugConsole::breakpointPlace(const BreakpointInfo& b) const
{
    return locationText(Location{b.file, b.line, 0, {}, {}});
}

std::string DebugConsole::warpText() const
{
    const WarpView w = session_.warp();
    std::string out = fmt::format("block {} warp {}  lanes {}  ", w.block, w.warp, laneMap(w));
    if (w.done)
        return out + "done (every lane has exited)\n";
    out += fmt::format("{} of {} active", __builtin_popcount(w.active), __builtin_popcount(w.exists));
    bool diverged = false;
    for (const LaneGroup& g : w.groups)
        diverged |= g.state == LaneGroup::State::Diverged;
    out += diverged ? ", diverged\n" : "\n";
    for (const LaneGroup& g : w.groups) {
        switch (g.state) {
        case LaneGroup::State::Active:
            out += fmt::format("  active    lanes {} at {} (pc {})\n", laneList(g.lanes), locationText(g.where),
                               g.where.pc);
            break;
        case LaneGroup::State::Diverged:
            out += fmt::format("  waiting   lanes {} at {} (pc {})\n", laneList(g.lanes), locationText(g.where),
                               g.where.pc);
            break;
        case LaneGroup::State::AtBarrier:
            out += fmt::format("  barrier   lanes {} at {}\n", laneList(g.lanes), locationText(g.where));
            break;
        case LaneGroup::State::Exited: out += fmt::format("  exited    lanes {}\n", laneList(g.lanes)); break;
        }
    }
    return out;
}

// The simulator's messages name files by their path: the transcript names them as the
// stops do, by their names alone.
std::string DebugConsole::withoutFolder(std::string text) const
{
    const std::string file = session_.locate(0).file;
    const auto slash = file.find_last_of('/');
    if (slash == std::string::npos)
        return text;
    const std::string folder = file.substr(0, slash + 1);
    for (auto at = text.find(folder); at != std::string::npos; at = text.find(folder, at))
        text.erase(at, folder.size());
    return text;
}

std::string DebugConsole::stopText(const Stop& s) const
{
    std::string out;
    switch (s.reason) {
    case StopReason::Breakpoint: out = fmt::format("breakpoint {} hit by lane {}", s.breakpoint, s.lane); break;
    case StopReason::Watch:
        if (s.watch && s.watch->write)
            out = fmt::format("watchpoint {}: written by block {} warp {} lane {} at {}: old {} new {}", s.watch->watch,
                              s.watch->block, s.watch->warp, s.watch->lane, locationText(s.watch->where),
                              s.watch->oldValue, s.watch->newValue);
        else if (s.watch)
            out = fmt::format("watchpoint {}: read by block {} warp {} lane {} at {}: value {}", s.watch->watch,
                              s.watch->block, s.watch->warp, s.watch->lane, locationText(s.watch->where),
                              s.watch->newValue);
        break;
    case StopReason::Fault: out = "fault: " + withoutFolder(s.message); break;
    case StopReason::Finding: out = "finding: " + withoutFolder(s.message); break;
    default: out = toString(s.reason); break;
    }
    out = fmt::format("[{}] {}\n", s.position, out);
    if (s.reason == StopReason::Finished)
        return out + "the launch has finished\n";
    const WarpView w = session_.warp();
    if (!w.done) {
        const Location& at = w.where;
        out += fmt::format("{} in {}, pc {}: {}\n", locationText(at), at.function, at.pc, at.instruction);
        const std::string src = session_.sourceLine(at.file, at.line);
        if (!src.empty())
            out += fmt::format("{:>6} | {}\n", at.line, src);
    }
    return out + warpText();
}

std::string DebugConsole::run(const std::string& command, const std::string& args)
{
    auto motion = [&](Motion m) { return stopText(session_.resume(m)); };
    if (command == "quit") {
        done_ = true;
        return {};
    }
    if (command == "continue")
        return motion(Motion::Continue);
    if (command == "step")
        return motion(Motion::Step);
    if (command == "stepi")
        return motion(Motion::StepInstruction);
    if (command == "next")
        return motion(Motion::Next);
    if (command == "finish")
        return motion(Motion::Finish);
    if (command == "barrier")
        return motion(Motion::Barrier);
    if (command == "reconverge")
        return motion(Motion::Reconverge);
    if (command == "reverse-step")
        return motion(Motion::ReverseStep);
    if (command == "reverse-stepi")
        return motion(Motion::ReverseStepInstruction);
    if (command == "reverse-continue")
        return motion(Motion::ReverseContinue);
    if (command == "goto")
        return stopText(session_.goTo(wholeNumber(args, "goto")));
    if (command == "where")
        return stopText(session_.stop());
    if (command == "break")
        return breakCommand(args);
    if (command == "delete") {
        const auto w = words(args);
        if (w.size() == 2 && w[0] == "watch") {
            session_.removeWatch(int(wholeNumber(w[1], "delete watch")));
            return fmt::format("deleted watchpoint {}\n", w[1]);
        }
        session_.removeBreakpoint(int(wholeNumber(args, "delete")));
        return fmt::format("deleted breakpoint {}\n", args);
    }
    if (command == "watch" || command == "rwatch")
        return watchCommand(args, command == "rwatch");
    if (command == "block") {
        const Stop s = session_.focusBlock(wholeNumber(args, "block"));
        return stopText(s);
    }
    if (command == "warp") {
        session_.focusWarp(std::uint32_t(wholeNumber(args, "warp")));
        return warpText();
    }
    if (command == "thread" || command == "lane") {
        if (command == "thread")
            session_.focusThread(wholeNumber(args, "thread"));
        else
            session_.focusLane(std::uint32_t(wholeNumber(args, "lane")));
        const Focus f = session_.focus();
        return fmt::format("block {} warp {} lane {} (thread {})\n", f.block, f.warp, f.lane, f.warp * 32 + f.lane);
    }
    if (command == "lanes")
        return lanesCommand(args);
    if (command == "print") {
        if (args.empty())
            usage("print EXPR");
        const LaneValue v = session_.evaluate(args);
        const Focus f = session_.focus();
        return fmt::format("{} = {}  (block {} warp {} lane {})\n", args, v.text, f.block, f.warp, f.lane);
    }
    if (command == "shared")
        return sharedCommand(args);
    if (command == "output")
        return outputCommand();
    if (command == "ptx")
        return ptxCommand();
    if (command == "backtrace") {
        std::string out;
        const auto frames = session_.backtrace();
        for (std::size_t i = 0; i < frames.size(); ++i)
            out += i == 0 ? fmt::format("#{} {} at {}\n", i, frames[i].function, locationText(frames[i].where))
                          : fmt::format("#{} {} called at {}\n", i, frames[i].function, locationText(frames[i].where));
        return out;
    }
    if (command == "info")
        return infoCommand(args);
    if (command == "help")
        return "commands: break, delete, watch, rwatch, continue, step, stepi, next, finish, barrier, reconverge,\n"
               "reverse-step, reverse-stepi, reverse-continue, goto, block, warp, thread, lane, lanes, print, shared, "
               "output, ptx,\n"
               "backtrace, info warps|breakpoints|watches, where, quit (docs/debugger.md)\n";
    usage(fmt::format("unknown command \"{}\" (help lists them)", command));
}

// break [FILE:]LINE [if EXPR] [ignore N] [all]: "ignore" and "all" close the text.
std::string DebugConsole::breakCommand(const std::string& args)
{
    BreakpointSpec spec;
    std::string rest = args;
    auto trailing = [&](const std::string& word) -> std::optional<std::string> {
        const auto at = rest.rfind(" " + word);
        if (at == std::string::npos)
            return std::nullopt;
        std::string value(trim(std::string_view(rest).substr(at + word.size() + 1)));
        rest = std::string(trim(std::string_view(rest).substr(0, at)));
        return value;
    };
    for (int round = 0; round < 2; ++round) {
        if (rest.ends_with(" all")) {
            spec.mode = BreakMode::AllLanes;
            rest = std::string(trim(std::string_view(rest).substr(0, rest.size() - 4)));
        }
        const auto at = rest.rfind(" ignore ");
        if (at != std::string::npos && rest.find(' ', at + 8) == std::string::npos)
            spec.ignore = wholeNumber(*trailing("ignore"), "ignore");
    }
    const auto ifAt = rest.find(" if ");
    std::string place = rest;
    if (ifAt != std::string::npos) {
        spec.condition = std::string(trim(std::string_view(rest).substr(ifAt + 4)));
        place = std::string(trim(std::string_view(rest).substr(0, ifAt)));
    }
    if (place.starts_with('*')) // an instruction, by the pc `ptx` lists
        spec.pc = std::uint32_t(wholeNumber(place.substr(1), "break *PC"));
    else {
        const auto colon = place.rfind(':');
        if (colon != std::string::npos) {
            spec.file = place.substr(0, colon);
            place = place.substr(colon + 1);
        }
        spec.line = std::uint32_t(wholeNumber(place, "break"));
    }
    const BreakpointInfo b = session_.addBreakpoint(spec);
    std::string out = spec.pc ? fmt::format("breakpoint {} at pc {} ({})", b.id, *spec.pc, breakpointPlace(b))
                              : fmt::format("breakpoint {} at {}", b.id, breakpointPlace(b));
    if (!spec.condition.empty())
        out += fmt::format(" if {}", spec.condition);
    if (spec.ignore)
        out += fmt::format(", ignoring {} hits", spec.ignore);
    if (spec.mode == BreakMode::AllLanes)
        out += ", when all live lanes of a warp have arrived";
    return out + "\n";
}

// The kernel's instructions as the simulator runs them (inlined calls in place): the pcs
// that `stepi` moves by and `break *PC` names, each with its line.
std::string DebugConsole::ptxCommand() const
{
    std::string out;
    const std::uint32_t count = session_.instructions();
    for (std::uint32_t pc = 0; pc < count; ++pc) {
        const Location at = session_.locate(pc);
        out += fmt::format("{:>5}  {:<14}  {}\n", pc, at.line ? locationText(at) : std::string("-"), at.instruction);
    }
    return out;
}

// watch BUFFER(i) | watch shared OFFSET [TYPE]
std::string DebugConsole::watchCommand(const std::string& args, bool reads)
{
    WatchSpec spec;
    spec.reads = reads;
    const auto w = words(args);
    if (!w.empty() && w[0] == "shared") {
        if (w.size() < 2 || w.size() > 3)
            usage("watch shared OFFSET [TYPE]");
        spec.index = wholeNumber(w[1], "watch shared");
        spec.type = DType::U32;
        if (w.size() == 3) {
            const auto t = parseDType(w[2]);
            if (!t)
                usage(fmt::format("watch shared: \"{}\" is not a type (f32, i32, u32, f64...)", w[2]));
            spec.type = *t;
        }
    } else {
        const auto open = args.find('('), close = args.rfind(')');
        if (open == std::string::npos || close == std::string::npos || close < open)
            usage("watch BUFFER(INDEX) or watch shared OFFSET [TYPE]");
        spec.buffer = std::string(trim(std::string_view(args).substr(0, open)));
        spec.index = wholeNumber(std::string_view(args).substr(open + 1, close - open - 1), "watch");
    }
    const WatchInfo info = session_.addWatch(spec);
    const std::string what = spec.buffer.empty() ? fmt::format("shared {} ({})", spec.index, toString(spec.type))
                                                 : fmt::format("{}({})", spec.buffer, spec.index);
    return fmt::format("{} {}: {}\n", reads ? "read watchpoint" : "watchpoint", info.id, what);
}

// lanes EXPR... : expressions separated by spaces, or by commas when one holds a space.
std::vector<std::string> DebugConsole::laneExpressions(const std::string& args)
{
    std::vector<std::string> exprs;
    if (args.find(',') != std::string::npos) {
        for (std::size_t i = 0; i <= args.size();) {
            const std::size_t j = std::min(args.find(',', i), args.size());
            const std::string_view e = trim(std::string_view(args).substr(i, j - i));
            if (!e.empty()) // "lanes a + b," names one expression with spaces
                exprs.emplace_back(e);
            i = j + 1;
        }
    } else
        exprs = words(args);
    if (exprs.empty())
        usage("lanes EXPR...");
    return exprs;
}

std::string DebugConsole::lanesCommand(const std::string& args) const
{
    if (trim(args).empty())
        return variablesCommand();
    const std::vector<std::string> exprs = laneExpressions(args);
    std::vector<std::vector<LaneValue>> columns;
    for (const auto& e : exprs)
        columns.push_back(session_.lanes(e));
    return laneTable(exprs, columns);
}

// lanes (no expression): the source's variables in scope, their types, then their lanes.
std::string DebugConsole::variablesCommand() const
{
    if (!session_.hasSourceVariables())
        usage(fmt::format("lanes EXPR... (no source variables: {})", session_.variablesMode()));
    const std::vector<SourceVariableView> vars = flattened(session_.locals());
    if (vars.empty())
        return "no source variables in scope here\n";
    std::size_t width = 0;
    for (const auto& v : vars)
        width = std::max(width, v.name.size());
    std::string out;
    std::vector<std::string> names;
    std::vector<std::vector<LaneValue>> columns;
    for (const auto& v : vars) {
        out += fmt::format("{:<{}}  {}{}\n", v.name, width, v.type, v.available ? std::string() : "  (" + v.why + ")");
        names.push_back(v.name);
        columns.push_back(v.available ? v.lanes : std::vector<LaneValue>(32, LaneValue{true, 0, "-"}));
    }
    return out + laneTable(names, columns);
}

std::string DebugConsole::laneTable(const std::vector<std::string>& exprs,
                                    const std::vector<std::vector<LaneValue>>& columns) const
{
    std::vector<std::size_t> widths;
    for (std::size_t c = 0; c < exprs.size(); ++c) {
        const std::string& e = exprs[c];
        std::size_t wdt = e.size();
        for (const auto& v : columns[c])
            wdt = std::max(wdt, v.text.size());
        widths.push_back(wdt);
    }
    const WarpView w = session_.warp();
    const std::string map = laneMap(w);
    std::string out = fmt::format("lane  tid   ");
    for (std::size_t c = 0; c < exprs.size(); ++c)
        out += fmt::format("  {:>{}}", exprs[c], widths[c]);
    out += "\n";
    const Focus f = session_.focus();
    for (int l = 0; l < 32; ++l) {
        if (!((w.exists >> l) & 1))
            continue;
        out += fmt::format("{:>3} {} {:<5} ", l, map[std::size_t(l)], f.warp * 32 + std::uint32_t(l));
        for (std::size_t c = 0; c < exprs.size(); ++c)
            out += fmt::format("  {:>{}}", columns[c][std::size_t(l)].text, widths[c]);
        out += "\n";
    }
    return out;
}

// shared TYPE [OFFSET COUNT]
DebugConsole::SharedRange DebugConsole::sharedRange(const std::string& args) const
{
    const auto w = words(args);
    if (w.empty() || (w.size() != 1 && w.size() != 3))
        usage("shared TYPE [OFFSET COUNT]");
    const auto type = parseDType(w[0]);
    if (!type)
        usage(fmt::format("shared: \"{}\" is not a type (f32, i32, u32, f64...)", w[0]));
    const std::uint32_t size = std::uint32_t(sizeOf(*type));
    const std::uint32_t offset = w.size() == 3 ? std::uint32_t(wholeNumber(w[1], "shared")) : 0;
    const std::uint32_t count = w.size() == 3 ? std::uint32_t(wholeNumber(w[2], "shared"))
                                              : std::min<std::uint32_t>(64, session_.sharedBytes() / size);
    return {*type, offset, count};
}

std::string DebugConsole::sharedCommand(const std::string& args) const
{
    const SharedRange r = sharedRange(args);
    std::string out = fmt::format("shared memory of block {}: {} bytes; {} {} from byte {}\n", session_.focus().block,
                                  session_.sharedBytes(), r.count, toString(r.type), r.offset);
    const auto words = session_.shared(r.type, r.offset, r.count);
    std::size_t width = 5;
    for (const SharedWord& sw : words)
        width = std::max(width, sw.text.size());
    out += fmt::format("offset  bank  {:<{}}  last written by\n", "value", width);
    for (const SharedWord& sw : words) {
        std::string writer = "-";
        if (const auto& lw = sw.lastWriter)
            writer = fmt::format("warp {} lane {} (thread {}) at {}", lw->warp, lw->lane, lw->thread,
                                 locationText(lw->where));
        out += fmt::format("{:>6}  {:>4}  {:<{}}  {}\n", sw.offset, sw.bank, sw.text, width, writer);
    }
    return out;
}

// output: device printf text so far, under a line naming its block, each line with the
// thread that printed it.
std::string DebugConsole::outputCommand() const
{
    std::string out;
    for (const DeviceOutput& o : session_.output()) {
        out += fmt::format("block {}{}:\n", o.block, o.complete ? "" : " (under way)");
        for (const PrintedLine& line : o.lines)
            out += fmt::format("thread {}: {}\n", line.thread, line.text);
    }
    if (out.empty())
        out = "no device output yet\n";
    if (session_.outputTruncated())
        out += "(the launch's printf buffer is full: later output was dropped)\n";
    return out;
}

std::string DebugConsole::infoCommand(const std::string& args) const
{
    if (args == "warps") {
        std::string out;
        const Focus f = session_.focus();
        for (const WarpView& w : session_.warps()) {
            out += fmt::format("{} warp {:>2}  {}  ", w.warp == f.warp ? '*' : ' ', w.warp, laneMap(w));
            if (w.done)
                out += "done\n";
            else if (w.atBarrier)
                out += fmt::format("waiting at the barrier at {}\n", locationText(w.where));
            else
                out += fmt::format("at {} (pc {})\n", locationText(w.where), w.where.pc);
        }
        return out;
    }
    if (args == "breakpoints") {
        std::string out;
        for (const BreakpointInfo& b : session_.breakpoints()) {
            out += b.spec.pc ? fmt::format("{}  pc {} ({})", b.id, *b.spec.pc, breakpointPlace(b))
                             : fmt::format("{}  {}", b.id, breakpointPlace(b));
            if (!b.spec.condition.empty())
                out += " if " + b.spec.condition;
            if (b.spec.ignore)
                out += fmt::format(" ignore {}", b.spec.ignore);
            if (b.spec.mode == BreakMode::AllLanes)
                out += " all";
            out += fmt::format("  ({} hits)\n", b.hits);
        }
        return out.empty() ? "no breakpoints\n" : out;
    }
    if (args == "watches") {
        std::string out;
        for (const WatchInfo& w : session_.watches())
            out += fmt::format("{}  {}{}  ({} hits)\n", w.id, w.spec.reads ? "rwatch " : "watch ",
                               w.spec.buffer.empty() ? fmt::format("shared {} {}", w.spec.index, toString(w.spec.type))
                                                     : fmt::format("{}({})", w.spec.buffer, w.spec.index),
                               w.hits);
        return out.empty() ? "no watchpoints\n" : out;
    }
    usage("info warps | info breakpoints | info watches");
}

} // namespace kw::debug
