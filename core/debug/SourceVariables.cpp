#include "debug/SourceVariables.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace kw::debug {

using dwarf::SourceVariable;
using dwarf::VariableLocation;

SourceVariables::SourceVariables(dwarf::PtxDebugInfo info, const sim::Module& module, const sim::Function& fn)
    : info_(std::move(info))
    , module_(module)
    , fn_(fn)
{
    for (const sim::FrameName& n : fn.labels)
        labels_[{n.frame, n.name}] = std::uint32_t(n.value);
    for (const sim::FrameName& n : fn.registers)
        registers_[{n.frame, n.name}] = std::uint32_t(n.value);
    for (const sim::FrameName& n : fn.locals)
        locals_[{n.frame, n.name}] = n.value;
}

std::optional<std::uint32_t> SourceVariables::labelPc(std::uint32_t frame, const std::string& label) const
{
    const auto it = labels_.find({frame, label});
    if (it == labels_.end())
        return std::nullopt;
    return it->second;
}

bool SourceVariables::inScope(const SourceVariable& v, std::uint32_t frame, std::uint32_t pc, std::string& why) const
{
    for (const dwarf::LabelRange& r : v.scopes) {
        const auto begin = labelPc(frame, r.begin);
        const auto end = labelPc(frame, r.end);
        if (!begin || !end) {
            why = fmt::format("its scope's label {} is not in the function", begin ? r.end : r.begin);
            return true; // shown, as unreadable
        }
        if (pc < *begin || pc >= *end)
            return false;
    }
    return true;
}

VisibleVariable SourceVariables::resolve(const SourceVariable& v, const VariableLocation& at, std::uint32_t frame) const
{
    VisibleVariable out;
    out.name = v.name;
    out.source = &v;
    if (at.kind == VariableLocation::Kind::Register) {
        const auto it = registers_.find({frame, at.registerName});
        if (it == registers_.end()) {
            out.why = fmt::format("its register {} is not in the function", at.registerName);
            return out;
        }
        out.where = VisibleVariable::Where::Register;
        out.reg = it->second;
        return out;
    }
    if (const auto it = locals_.find({frame, at.symbol}); it != locals_.end()) {
        out.where = VisibleVariable::Where::Local;
        out.address = it->second + at.offset;
        return out;
    }
    for (const sim::GlobalVar& g : module_.globals) {
        if (g.name != at.symbol)
            continue;
        out.where = g.space == sim::Space::Shared ? VisibleVariable::Where::Shared : VisibleVariable::Where::Global;
        out.address = g.address + at.offset;
        return out;
    }
    out.why = fmt::format("it lies at {}, which the simulator does not place", at.symbol);
    return out;
}

VisibleVariable SourceVariables::place(const SourceVariable& v, std::uint32_t frame, std::uint32_t pc) const
{
    VisibleVariable out;
    out.name = v.name;
    out.source = &v;
    if (!v.unreadable.empty()) {
        out.why = v.unreadable;
        return out;
    }
    if (!v.bodyBegin.empty() && (v.location || !v.ranges.empty())) {
        // The prologue: a register it names holds nothing of the variable's yet.
        const auto body = labelPc(frame, v.bodyBegin);
        if (body && pc < *body) {
            out.why = "not available here (before the function's prologue loads it)";
            return out;
        }
    }
    if (v.location)
        return resolve(v, *v.location, frame);
    for (const dwarf::LocationRange& r : v.ranges) {
        const auto begin = labelPc(frame, r.begin);
        const auto end = labelPc(frame, r.end);
        if (!begin || !end) {
            out.why = fmt::format("its location's label {} is not in the function", begin ? r.end : r.begin);
            return out;
        }
        if (pc >= *begin && pc < *end)
            return resolve(v, r.location, frame);
    }
    out.why = "not available here";
    return out;
}

std::vector<VisibleVariable> SourceVariables::at(std::uint32_t pc) const
{
    if (pc >= fn_.frame.size())
        return {};
    const std::uint32_t frame = fn_.frame[pc];
    const std::string& function = fn_.frames[frame].function;
    std::vector<const SourceVariable*> in;
    std::vector<std::string> whyNot;
    for (const SourceVariable& v : info_.variables()) {
        if (v.function != function)
            continue;
        std::string why;
        if (inScope(v, frame, pc, why)) {
            in.push_back(&v);
            whyNot.push_back(why);
        }
    }
    // The innermost of each name keeps it; an outer one is NAME@LINE.
    std::vector<std::size_t> order(in.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return in[a]->scopes.size() > in[b]->scopes.size(); });
    std::vector<std::string> names(in.size());
    std::set<std::string> taken;
    for (const std::size_t i : order) {
        names[i] = taken.insert(in[i]->name).second ? in[i]->name : fmt::format("{}@{}", in[i]->name, in[i]->line);
    }
    std::vector<std::size_t> shown(in.size());
    for (std::size_t i = 0; i < shown.size(); ++i)
        shown[i] = i;
    std::stable_sort(shown.begin(), shown.end(), [&](std::size_t a, std::size_t b) {
        if (in[a]->parameter != in[b]->parameter)
            return in[a]->parameter;
        return in[a]->line < in[b]->line;
    });
    std::vector<VisibleVariable> out;
    for (const std::size_t i : shown) {
        VisibleVariable v;
        if (!whyNot[i].empty()) {
            v.source = in[i];
            v.why = whyNot[i];
        } else {
            v = place(*in[i], frame, pc);
        }
        v.name = names[i];
        out.push_back(std::move(v));
    }
    return out;
}

std::optional<VisibleVariable> memberOf(const VisibleVariable& v, const std::string& name)
{
    const dwarf::SourceType& t = v.type();
    if (t.kind != dwarf::SourceType::Kind::Struct)
        return std::nullopt;
    const auto m = std::find_if(t.members.begin(), t.members.end(),
                                [&](const dwarf::SourceMember& member) { return member.name == name; });
    if (m == t.members.end())
        return std::nullopt;
    VisibleVariable out = v;
    out.name = v.name + "." + name;
    out.member = &m->type;
    out.address = v.address + m->offset;
    if (v.where == VisibleVariable::Where::Register) {
        out.where = VisibleVariable::Where::Nowhere;
        out.why = fmt::format("{} is held in a register: its members are not read", v.name);
    }
    return out;
}

std::optional<VisibleVariable> SourceVariables::find(const std::string& name, std::uint32_t pc) const
{
    const std::size_t dot = name.find('.');
    if (dot != std::string::npos) { // NAME.x.y: members, one after another
        std::optional<VisibleVariable> v = find(name.substr(0, dot), pc);
        for (std::size_t from = dot + 1; v && from <= name.size();) {
            const std::size_t next = std::min(name.find('.', from), name.size());
            v = memberOf(*v, name.substr(from, next - from));
            from = next + 1;
        }
        return v;
    }
    for (VisibleVariable& v : at(pc))
        if (v.name == name)
            return std::move(v);
    for (const SourceVariable& v : info_.variables())
        if (v.function.empty() && v.name == name)
            return place(v, 0, pc);
    return std::nullopt;
}

} // namespace kw::debug
