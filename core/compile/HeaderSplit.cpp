#include "compile/HeaderSplit.hpp"

#include "compile/NvrtcHostRemoval.hpp"

#include <algorithm>

namespace kw {

HeaderSplit::HeaderSplit(std::vector<InMemoryHeader>& inMemory)
    : inMemory_(inMemory)
{
    for (InMemoryHeader& h : inMemory_) {
        DeviceSource device = HostCodeFilter::deviceOnly(h.text);
        h.text = device.text;
        splits_.push_back({h.name, {}, h.name, h.text, std::move(device.removed), true});
    }
}

HeaderSplit::HeaderSplit(const std::vector<IncludedFile>& files, std::vector<InMemoryHeader>& inMemory)
    : inMemory_(inMemory)
{
    for (const IncludedFile& f : files) {
        if (f.path.empty() || f.notRegular)
            continue;
        const auto sameName = [&](const IncludedFile& g) { return g.spelled == f.spelled; };
        if (std::count_if(files.begin(), files.end(), sameName) != 1)
            continue;
        DeviceSource device = HostCodeFilter::deviceOnly(f.contents);
        Split s{f.path.string(), f.path.string(), f.spelled, std::move(device.text), std::move(device.removed), false};
        if (!s.removed.empty())
            publish(s);
        splits_.push_back(std::move(s));
    }
}

void HeaderSplit::publish(Split& s)
{
    if (s.inMemory) {
        for (InMemoryHeader& h : inMemory_)
            if (h.name == s.spelled)
                h.text = s.text;
        return;
    }
    inMemory_.push_back({s.spelled, s.text});
    s.inMemory = true;
    s.name = s.spelled; // NVRTC names an in-memory header by its name
}

bool HeaderSplit::removeNamed(const std::vector<Diagnostic>& diagnostics)
{
    bool any = false;
    for (Split& s : splits_) {
        std::vector<Diagnostic> mine;
        for (const Diagnostic& d : diagnostics)
            if (d.file == s.name || (!s.path.empty() && d.file == s.path))
                mine.push_back(d);
        for (Diagnostic& d : mine)
            d.file = s.name;
        if (!mine.empty() && NvrtcHostRemoval::apply(s.text, s.name, mine, s.removed)) {
            publish(s);
            any = true;
        }
    }
    return any;
}

void HeaderSplit::nameFiles(std::vector<Diagnostic>& diagnostics) const
{
    for (Diagnostic& d : diagnostics)
        for (const Split& s : splits_)
            if (s.inMemory && !s.path.empty() && d.file == s.name)
                d.file = s.path;
}

std::vector<Diagnostic> HeaderSplit::notes() const
{
    std::vector<Diagnostic> out;
    for (const Split& s : splits_)
        for (const HostCodeRange& h : s.removed)
            out.push_back(Diagnostic{s.inMemory && !s.path.empty() ? s.path : s.name,
                                     h.firstLine,
                                     1,
                                     Severity::Note,
                                     h.what + " (lines " + std::to_string(h.firstLine) + "-"
                                         + std::to_string(h.lastLine) + ") is host code: not compiled",
                                     {},
                                     {}});
    return out;
}

} // namespace kw
