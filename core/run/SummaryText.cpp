#include "run/SummaryText.hpp"

#include "launch/Occupancy.hpp"
#include "launch/RunNotes.hpp"
#include "run/TimingDetailText.hpp"
#include "util/TerminalText.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kw {

namespace {

// " (cached)" beside a compile time; nothing for a plain compile.
std::string note(const std::string& how) { return how.empty() ? how : " (" + how + ")"; }

} // namespace

std::string SummaryText::diagnostics(const CompileResult& r)
{
    std::string text;
    for (const auto& d : r.diagnostics) {
        text += fmt::format("{}:{}:{}: {}: {}\n", d.file, d.line, d.column, toString(d.severity), d.message);
        for (const auto& n : d.notes)
            text += fmt::format("    {}\n", n);
    }
    // The compiler quotes source lines, which may hold any byte.
    return TerminalText::escape(text);
}

std::string SummaryText::compile(const CompileResult& r)
{
    std::string text = diagnostics(r);
    for (const auto& k : r.kernels) {
        std::string params;
        for (const auto& p : k.params)
            params += (params.empty() ? "" : ", ") + p.type + (p.name.empty() ? "" : " " + p.name);
        text += fmt::format("kernel {}({}){}\n", k.name, params,
                            k.file.empty() ? "" : TerminalText::escape(fmt::format("  in {}:{}", k.file, k.line)));
    }
    text += fmt::format("{} for {} in {:.1f} ms{}\n", r.ok ? "compiled" : "failed", r.arch, r.compileMs,
                        note(howCompiled(r)));
    return text;
}

std::string SummaryText::occupancy(const DeviceInfo& device, std::uint64_t threadsPerBlock, std::size_t dynamicShared,
                                   const KernelFootprint& kernel)
{
    const int registers = kernel.registers();
    const Occupancy o
        = Occupancy::compute(device.limits, threadsPerBlock, kernel.staticShared + dynamicShared, registers);
    std::string text
        = fmt::format("occupancy {} % on {} ({}): {} of {} warps per SM, {} blocks of {} threads per SM, "
                      "limited by {}",
                      int(o.fraction * 100 + 0.5), device.name, device.id, o.activeWarps, o.maxWarps, o.blocksPerSm,
                      threadsPerBlock, o.limitedBy.empty() ? "the block size" : o.limitedBy);
    text += registers > 0 ? fmt::format(" ({} registers per thread)", registers)
                          : std::string("; registers not counted (no ptxas report for a virtual arch)");
    return TerminalText::escape(text) + "\n";
}

std::string SummaryText::run(const RunResult& r, bool rawPrintf)
{
    std::string text;
    if (!r.printf.raw.empty()) {
        if (rawPrintf) {
            text += r.printf.raw;
        } else {
            const std::string safe = TerminalText::escape(r.printf.raw);
            for (std::size_t at = 0; at < safe.size();) {
                const std::size_t eol = std::min(safe.find('\n', at), safe.size());
                text += "| " + safe.substr(at, eol - at) + "\n";
                at = eol + 1;
            }
        }
        if (text.back() != '\n')
            text += "\n";
    }
    for (const auto& w : r.warnings)
        text += fmt::format("{}: {}\n", isNote(w) ? "note" : "warning", w);
    text += fmt::format("device   {} ({})\n", r.device.name, r.device.id);
    if (r.steps.empty()) // a document of steps gives each launch's below
        text += fmt::format("launch   grid {} block {} shared {} B\n", toString(r.grid), toString(r.block),
                            r.sharedBytes);
    text += findings(r);
    if (r.fault)
        return text + (r.steps.empty() ? std::string() : steps(r))
            + fmt::format("FAULT    {}: {}\n", toString(r.fault->kind), r.fault->message);
    const RunTimings& t = r.timings;
    if (!r.steps.empty())
        return text + steps(r);
    text += fmt::format("kernel   median {:.4f} ms  min {:.4f} ms  mean {:.4f} ms  ({} repeats)\n", t.medianMs, t.minMs,
                        t.meanMs, t.kernelMs.size());
    if (const std::string how = TimingDetailText::describe(t); !how.empty())
        text += "timing   " + how + "\n";
    text += fmt::format("memory   {} bytes moved, {:.1f} GB/s\n", t.bytesMoved, t.gbps);
    text += fmt::format("times    compile {:.1f} ms{}  module load {:.2f} ms  upload {:.2f} ms  download {:.2f} ms\n",
                        t.compileMs, note(howCompiled(r.compile)), t.moduleLoadMs, t.h2dMs, t.d2hMs);
    return text + checks(r.checks, "");
}

std::string SummaryText::checks(const std::vector<CheckResult>& results, const std::string& indent)
{
    std::string text;
    for (const auto& c : results) {
        text += fmt::format(
            "{}check    {} = {}: {} ({} of {} elements differ, max abs error {:.3g}, max rel error {:.3g})\n", indent,
            c.buffer, c.expect, c.passed ? "passed" : "FAILED", c.mismatches, c.checked, c.maxAbsError, c.maxRelError);
        for (const auto& m : c.firstMismatches)
            text += fmt::format("{}           [{}] got {} expected {}\n", indent, m.index, m.got, m.expected);
    }
    return text;
}

std::string SummaryText::steps(const RunResult& r)
{
    const RunTimings& t = r.timings;
    double total = 0;
    for (const StepResult& s : r.steps)
        if (s.kind == "launch")
            total += s.totalMs;
    std::string text = fmt::format("steps    {} steps, kernels {:.4f} ms in all\n", r.steps.size(), total);
    for (const StepResult& s : r.steps) {
        const std::size_t depth = std::size_t(std::count(s.path.begin(), s.path.end(), '.'));
        const std::string label = std::string(2 * depth, ' ') + s.path + " " + s.name;
        std::string what;
        if (s.kind == "launch") {
            what = fmt::format("grid {} block {}  {:.4f} ms", toString(s.grid), toString(s.block), s.totalMs);
            if (s.runs > 1)
                what += fmt::format(" in {} runs", s.runs);
            if (total > 0)
                what += fmt::format(" ({:.0f} %)", 100 * s.totalMs / total);
        } else if (s.kind == "repeat" || s.kind == "repeat_until") {
            what = fmt::format("{} pass{}, {:.4f} ms", s.runs, s.runs == 1 ? "" : "es", s.totalMs);
        } else {
            what = s.runs == 1 ? std::string("done") : fmt::format("{} times", s.runs);
        }
        if (s.runs == 0)
            what = "not run";
        text += fmt::format("  {:<32} {}\n", label, what);
        text += checks(s.checks, std::string(4 + 2 * depth, ' '));
    }
    if (!r.stopped.empty())
        text += fmt::format("STOPPED  {}\n", r.stopped);
    text += fmt::format("times    compile {:.1f} ms{}\n", t.compileMs, note(howCompiled(r.compile)));
    return text + checks(r.checks, "");
}

std::string SummaryText::findings(const RunResult& r)
{
    if (r.check == CheckTool::None)
        return {};
    std::string text = fmt::format("{}{} found {} problem{}\n", r.findings.empty() ? "check    " : "CHECK    ",
                                   toString(r.check), r.findings.size(), r.findings.size() == 1 ? "" : "s");
    for (const auto& f : r.findings) {
        std::string where = f.file.empty() ? std::string() : f.file + ":";
        if (f.line > 0)
            where += std::to_string(f.line) + ": ";
        else if (!where.empty())
            where += " ";
        text += fmt::format("         {}{}{}\n", where, f.message,
                            f.count > 1 ? fmt::format(" ({} times)", f.count) : "");
    }
    return text;
}

std::string SummaryText::runner(const std::string& command, std::uint64_t sent, std::uint64_t received)
{
    return fmt::format("runner   {}: sent {}, received {}\n", command, bytes(sent), bytes(received));
}

std::string SummaryText::bytes(std::uint64_t n)
{
    if (n < 1024)
        return fmt::format("{} B", n);
    if (n < (1 << 20))
        return fmt::format("{:.1f} KiB", double(n) / 1024);
    return fmt::format("{:.1f} MiB", double(n) / (1 << 20));
}

} // namespace kw
