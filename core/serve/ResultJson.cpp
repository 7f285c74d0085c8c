// Just over 600 lines: every result type's JSON form in one place, so the wire format reads as one.
// JSON forms of the run and compile results (docs/protocol.md, "Results").
#include "serve/ResultJson.hpp"

#include "run/ProfileFigures.hpp"
#include "run/ProfileFindings.hpp"
#include "util/Error.hpp"
#include "util/JsonField.hpp"

#include <nlohmann/json.hpp>

namespace kw {

using nlohmann::json;

namespace {

json dimJson(const Dim3& d) { return json::array({d.x, d.y, d.z}); }

Dim3 dimFromJson(const json& j)
{
    Dim3 d;
    if (!j.is_array())
        return d;
    if (j.size() > 0)
        d.x = JsonField::as<std::uint32_t>(j[0], "x");
    if (j.size() > 1)
        d.y = JsonField::as<std::uint32_t>(j[1], "y");
    if (j.size() > 2)
        d.z = JsonField::as<std::uint32_t>(j[2], "z");
    return d;
}

// Looks an enum up by its toString() spelling.
template <typename E, std::size_t N> E enumFromString(const std::string& s, const E (&values)[N], const char* what)
{
    for (E v : values)
        if (s == toString(v))
            return v;
    throw Error(ErrorCategory::Protocol, std::string("unknown ") + what + " \"" + s + "\"");
}

constexpr Severity kSeverities[] = {Severity::Error, Severity::Warning, Severity::Remark, Severity::Note};
constexpr Direction kDirections[] = {Direction::In, Direction::Out, Direction::InOut};
constexpr FaultKind kFaultKinds[] = {FaultKind::None,        FaultKind::IllegalAddress, FaultKind::MisalignedAddress,
                                     FaultKind::Trap,        FaultKind::Assert,         FaultKind::LaunchFailure,
                                     FaultKind::Timeout,     FaultKind::OutOfBounds,    FaultKind::DivergentBarrier,
                                     FaultKind::Unsupported, FaultKind::Other};

// Results come from runners and child processes: a member of the wrong type is refused, not converted.
template <typename T> T value(const json& j, const char* key, T fallback)
{
    return JsonField::get<T>(j, key, std::move(fallback));
}

// What a member of the wrong shape makes nlohmann::json throw is the sender's fault.
[[noreturn]] void unreadable(const char* what, const json::exception& e)
{
    throw Error(ErrorCategory::Protocol, std::string(what) + ": " + e.what());
}

// A check's finding: {"tool","kind","message","file","line","block","thread","address","count"}.
json findingJson(const CheckFinding& f)
{
    json j = {{"tool", toString(f.tool)},
              {"kind", f.kind},
              {"message", f.message},
              {"file", f.file.empty() ? json(nullptr) : json(f.file)},
              {"line", f.line ? json(f.line) : json(nullptr)},
              {"block", f.block ? dimJson(*f.block) : json(nullptr)},
              {"thread", f.thread ? dimJson(*f.thread) : json(nullptr)},
              {"address", f.address ? json(*f.address) : json(nullptr)},
              {"count", f.count}};
    // A race's other access, only where there is one.
    if (f.otherLine > 0) {
        j["other_file"] = f.otherFile.empty() ? json(nullptr) : json(f.otherFile);
        j["other_line"] = f.otherLine;
    }
    return j;
}

CheckFinding findingFromJson(const json& j)
{
    CheckFinding f;
    f.tool = parseCheckTool(value<std::string>(j, "tool", "none")).value_or(CheckTool::None);
    f.kind = value<std::string>(j, "kind", "");
    f.message = value<std::string>(j, "message", "");
    f.file = value<std::string>(j, "file", "");
    f.line = value<int>(j, "line", 0);
    f.otherFile = value<std::string>(j, "other_file", "");
    f.otherLine = value<int>(j, "other_line", 0);
    if (j.contains("block") && !j["block"].is_null())
        f.block = dimFromJson(j["block"]);
    if (j.contains("thread") && !j["thread"].is_null())
        f.thread = dimFromJson(j["thread"]);
    if (j.contains("address") && !j["address"].is_null())
        f.address = JsonField::as<std::uint64_t>(j["address"], "address");
    f.count = value<std::uint32_t>(j, "count", 1);
    return f;
}

json faultJson(const Fault& f)
{
    return {{"kind", toString(f.kind)},
            {"message", f.message},
            {"block", f.block ? dimJson(*f.block) : json(nullptr)},
            {"thread", f.thread ? dimJson(*f.thread) : json(nullptr)},
            {"file", f.file.empty() ? json(nullptr) : json(f.file)},
            {"line", f.line ? json(f.line) : json(nullptr)}};
}

Fault faultFromJson(const json& j)
{
    Fault f;
    f.kind = enumFromString(j.at("kind").get<std::string>(), kFaultKinds, "fault kind");
    f.message = value<std::string>(j, "message", "");
    if (j.contains("block") && !j["block"].is_null())
        f.block = dimFromJson(j["block"]);
    if (j.contains("thread") && !j["thread"].is_null())
        f.thread = dimFromJson(j["thread"]);
    f.file = value<std::string>(j, "file", "");
    f.line = value<int>(j, "line", 0);
    return f;
}

// The profile's counters under Nsight Compute's names, and the extras the figures need.
constexpr std::pair<const char*, std::uint64_t ProfileCounters::*> kCounterFields[] = {
    {"inst_executed", &ProfileCounters::inst_executed},
    {"thread_inst_executed", &ProfileCounters::thread_inst_executed},
    {"divergent_branches", &ProfileCounters::divergent_branches},
    {"global_ld_requests", &ProfileCounters::global_ld_requests},
    {"global_ld_sectors", &ProfileCounters::global_ld_sectors},
    {"global_st_requests", &ProfileCounters::global_st_requests},
    {"global_st_sectors", &ProfileCounters::global_st_sectors},
    {"shared_ld_requests", &ProfileCounters::shared_ld_requests},
    {"shared_ld_wavefronts", &ProfileCounters::shared_ld_wavefronts},
    {"shared_st_requests", &ProfileCounters::shared_st_requests},
    {"shared_st_wavefronts", &ProfileCounters::shared_st_wavefronts},
    {"local_ld_requests", &ProfileCounters::local_ld_requests},
    {"local_st_requests", &ProfileCounters::local_st_requests},
    {"atomic_requests", &ProfileCounters::atomic_requests},
};
constexpr std::pair<const char*, std::uint64_t ProfileExtras::*> kExtraFields64[] = {
    {"branches", &ProfileExtras::branches},
    {"global_ld_ideal_sectors", &ProfileExtras::global_ld_ideal_sectors},
    {"global_st_ideal_sectors", &ProfileExtras::global_st_ideal_sectors},
    {"shared_ideal_wavefronts", &ProfileExtras::shared_ideal_wavefronts},
    {"shared_ld_ideal_wavefronts", &ProfileExtras::shared_ld_ideal_wavefronts},
    {"shared_st_ideal_wavefronts", &ProfileExtras::shared_st_ideal_wavefronts},
    {"global_ld_lanes", &ProfileExtras::global_ld_lanes},
    {"global_st_lanes", &ProfileExtras::global_st_lanes},
    {"atomic_lanes", &ProfileExtras::atomic_lanes},
    {"atomic_addresses", &ProfileExtras::atomic_addresses},
};
constexpr std::pair<const char*, std::uint32_t ProfileExtras::*> kExtraFields32[] = {
    {"worst_bank_conflict", &ProfileExtras::worst_bank_conflict},
    {"global_stride_bytes", &ProfileExtras::global_stride_bytes},
    {"global_ld_stride_bytes", &ProfileExtras::global_ld_stride_bytes},
    {"global_st_stride_bytes", &ProfileExtras::global_st_stride_bytes},
    {"shared_ld_stride_bytes", &ProfileExtras::shared_ld_stride_bytes},
    {"shared_st_stride_bytes", &ProfileExtras::shared_st_stride_bytes},
    {"global_ld_bytes", &ProfileExtras::global_ld_bytes},
    {"global_st_bytes", &ProfileExtras::global_st_bytes},
    {"shared_bytes", &ProfileExtras::shared_bytes},
    {"global_ld_run_bytes", &ProfileExtras::global_ld_run_bytes},
    {"global_st_run_bytes", &ProfileExtras::global_st_run_bytes},
};

json countersJson(const ProfileCounters& c, json j = json::object())
{
    for (const auto& [name, field] : kCounterFields)
        j[name] = c.*field;
    return j;
}

ProfileCounters countersFromJson(const json& j)
{
    ProfileCounters c;
    for (const auto& [name, field] : kCounterFields)
        c.*field = value<std::uint64_t>(j, name, 0);
    return c;
}

json extrasJson(const ProfileExtras& x, json j = json::object())
{
    for (const auto& [name, field] : kExtraFields64)
        j[name] = x.*field;
    for (const auto& [name, field] : kExtraFields32)
        j[name] = x.*field;
    return j;
}

ProfileExtras extrasFromJson(const json& j)
{
    ProfileExtras x;
    for (const auto& [name, field] : kExtraFields64)
        x.*field = value<std::uint64_t>(j, name, 0);
    for (const auto& [name, field] : kExtraFields32)
        x.*field = value<std::uint32_t>(j, name, 0);
    return x;
}

json figuresJson(const ProfileFigures& f, json j = json::object())
{
    j["ld_sectors_per_request"] = f.ldSectorsPerRequest;
    j["ld_ideal_sectors_per_request"] = f.ldIdealSectorsPerRequest;
    j["ld_excess"] = f.ldExcess;
    j["st_sectors_per_request"] = f.stSectorsPerRequest;
    j["st_ideal_sectors_per_request"] = f.stIdealSectorsPerRequest;
    j["st_excess"] = f.stExcess;
    j["shared_ld_ways"] = f.sharedLdWays;
    j["shared_st_ways"] = f.sharedStWays;
    j["shared_ld_excess"] = f.sharedLdExcess;
    j["shared_st_excess"] = f.sharedStExcess;
    j["bank_conflicts"] = f.bankConflicts;
    j["excess_wavefronts"] = f.excessWavefronts;
    j["branch_efficiency"] = f.branchEfficiency;
    j["active_lanes"] = f.activeLanes;
    j["cost"] = f.cost;
    j["cost_share"] = f.costShare;
    return j;
}

json where(const LineProfile& l) { return {{"file", l.file}, {"line", l.line}}; }

const char* spaceName(AccessSample::Space s)
{
    switch (s) {
    case AccessSample::Space::Global: return "global";
    case AccessSample::Space::Shared: return "shared";
    case AccessSample::Space::Local: return "local";
    }
    return "global";
}

AccessSample::Space spaceFromName(const std::string& s)
{
    if (s == "global")
        return AccessSample::Space::Global;
    if (s == "shared")
        return AccessSample::Space::Shared;
    if (s == "local")
        return AccessSample::Space::Local;
    throw Error(ErrorCategory::Protocol, "profile sample: unknown space \"" + s + "\"");
}

} // namespace

json toJson(const KernelProfile& p, const std::string& source)
{
    json lines = json::array(), extraLines = json::array(), figureLines = json::array();
    for (const LineProfile& l : p.lines) {
        if (l.counters.inst_executed == 0)
            continue;
        json line = countersJson(l.counters, where(l));
        if (!l.steps.empty()) // a document of steps: the steps that ran it
            line["steps"] = l.steps;
        lines.push_back(std::move(line));
        extraLines.push_back(extrasJson(l.extras, where(l)));
    }
    for (const LineFigures& lf : costliestLines(p))
        if (lf.line->counters.inst_executed)
            figureLines.push_back(figuresJson(lf.figures, where(*lf.line)));
    json samples = json::array();
    for (const AccessSample& s : p.samples) {
        json active = json::array(), address = json::array(), bytes = json::array();
        for (const LaneAccess& l : s.lanes) {
            active.push_back(l.active);
            address.push_back(l.address);
            bytes.push_back(l.bytes);
        }
        samples.push_back({{"space", spaceName(s.space)},
                           {"store", s.store},
                           {"atomic", s.atomic},
                           {"instruction", s.instruction},
                           {"active", active},
                           {"address", address},
                           {"bytes", bytes}});
    }
    json findings = json::array();
    for (const ProfileFinding& f : profileFindings(p, source))
        findings.push_back({{"file", f.file},
                            {"line", f.line},
                            {"kind", toString(f.kind)},
                            {"cost_share", f.costShare},
                            {"text", f.text}});
    return {{"totals", countersJson(p.totals)},
            {"lines", lines},
            {"extras", {{"totals", extrasJson(p.totalExtras)}, {"lines", extraLines}}},
            {"samples", samples},
            {"figures", {{"totals", figuresJson(kernelFigures(p))}, {"lines", figureLines}}},
            {"findings", findings}};
}

KernelProfile kernelProfileFromJson(const json& j)
try {
    KernelProfile p;
    if (j.contains("totals"))
        p.totals = countersFromJson(j["totals"]);
    for (const auto& l : j.value("lines", json::array())) {
        LineProfile lp;
        lp.file = value<std::string>(l, "file", "");
        lp.line = value<int>(l, "line", 0);
        lp.counters = countersFromJson(l);
        lp.steps = value<std::vector<std::string>>(l, "steps", {});
        p.lines.push_back(std::move(lp));
    }
    if (j.contains("extras")) {
        const json& x = j["extras"];
        if (x.contains("totals"))
            p.totalExtras = extrasFromJson(x["totals"]);
        for (const auto& l : x.value("lines", json::array())) {
            const std::string file = value<std::string>(l, "file", "");
            const int line = value<int>(l, "line", 0);
            for (LineProfile& lp : p.lines)
                if (lp.file == file && lp.line == line) {
                    lp.extras = extrasFromJson(l);
                    break;
                }
        }
    }
    for (const auto& s : j.value("samples", json::array())) {
        AccessSample a;
        a.space = spaceFromName(value<std::string>(s, "space", "global"));
        a.store = value<bool>(s, "store", false);
        a.atomic = value<bool>(s, "atomic", false);
        a.instruction = value<std::string>(s, "instruction", "");
        const auto active = value<std::vector<bool>>(s, "active", {});
        const auto address = value<std::vector<std::uint64_t>>(s, "address", {});
        const auto bytes = value<std::vector<std::uint32_t>>(s, "bytes", {});
        for (std::size_t l = 0; l < 32; ++l) {
            a.lanes[l].active = l < active.size() && active[l];
            a.lanes[l].address = l < address.size() ? address[l] : 0;
            a.lanes[l].bytes = l < bytes.size() ? bytes[l] : 0;
        }
        p.samples.push_back(std::move(a));
    }
    return p;
} catch (const json::exception& e) {
    unreadable("profile", e);
}

json toJson(const CompileResult& r, bool includePtx)
{
    json diags = json::array();
    for (const auto& d : r.diagnostics)
        diags.push_back({{"file", d.file},
                         {"line", d.line},
                         {"column", d.column},
                         {"severity", toString(d.severity)},
                         {"message", d.message},
                         {"notes", d.notes}});
    json kernels = json::array();
    for (const auto& k : r.kernels) {
        json params = json::array();
        for (const auto& p : k.params)
            params.push_back({{"name", p.name},
                              {"type", p.type},
                              {"base_type", p.baseType},
                              {"pointer", p.isPointer},
                              {"const", p.isConst},
                              {"restrict", p.isRestrict}});
        kernels.push_back({{"name", k.name},
                           {"line", k.line},
                           {"file", k.file},
                           {"template_params", k.templateParams},
                           {"params", params}});
    }
    json hostCode = json::array();
    for (const auto& h : r.hostCode)
        hostCode.push_back({{"first_line", h.firstLine}, {"last_line", h.lastLine}, {"what", h.what}});
    json j = {{"ok", r.ok},
              {"diagnostics", diags},
              {"kernels", kernels},
              {"host_code", hostCode},
              {"compile_ms", r.compileMs},
              {"cache_hit", r.cacheHit},
              {"pch", r.pch},
              {"arch", r.arch},
              {"lowered_names", r.loweredNames},
              {"log", r.log}};
    if (includePtx)
        j["ptx"] = r.ptx;
    return j;
}

CompileResult compileResultFromJson(const json& j)
try {
    CompileResult r;
    r.ok = value<bool>(j, "ok", false);
    r.log = value<std::string>(j, "log", "");
    r.ptx = value<std::string>(j, "ptx", "");
    r.arch = value<std::string>(j, "arch", "");
    r.compileMs = value<double>(j, "compile_ms", 0.0);
    r.cacheHit = value<bool>(j, "cache_hit", false);
    r.pch = value<std::string>(j, "pch", "");
    if (r.pch != "" && r.pch != "used" && r.pch != "created")
        r.pch.clear(); // a word this client does not know says nothing
    r.loweredNames = value<std::map<std::string, std::string>>(j, "lowered_names", {});
    for (const auto& d : j.value("diagnostics", json::array())) {
        Diagnostic diag;
        diag.file = value<std::string>(d, "file", "");
        diag.line = value<int>(d, "line", 0);
        diag.column = value<int>(d, "column", 0);
        diag.severity = enumFromString(value<std::string>(d, "severity", "error"), kSeverities, "severity");
        diag.message = value<std::string>(d, "message", "");
        diag.notes = value<std::vector<std::string>>(d, "notes", {});
        r.diagnostics.push_back(std::move(diag));
    }
    for (const auto& h : j.value("host_code", json::array()))
        r.hostCode.push_back(
            {value<int>(h, "first_line", 0), value<int>(h, "last_line", 0), value<std::string>(h, "what", "")});
    for (const auto& k : j.value("kernels", json::array())) {
        KernelSignature sig;
        sig.name = value<std::string>(k, "name", "");
        sig.line = value<int>(k, "line", 0);
        sig.file = value<std::string>(k, "file", "");
        sig.templateParams = value<std::vector<std::string>>(k, "template_params", {});
        for (const auto& p : k.value("params", json::array())) {
            KernelParam param;
            param.name = value<std::string>(p, "name", "");
            param.type = value<std::string>(p, "type", "");
            param.baseType = value<std::string>(p, "base_type", "");
            param.isPointer = value<bool>(p, "pointer", false);
            param.isConst = value<bool>(p, "const", false);
            param.isRestrict = value<bool>(p, "restrict", false);
            sig.params.push_back(std::move(param));
        }
        r.kernels.push_back(std::move(sig));
    }
    return r;
} catch (const json::exception& e) {
    unreadable("compile result", e);
}

json toJson(const DeviceInfo& d)
{
    const DeviceLimits& l = d.limits;
    return {{"id", d.id},
            {"name", d.name},
            {"compute_capability", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)},
            {"cc_major", d.ccMajor},
            {"cc_minor", d.ccMinor},
            {"total_memory", d.totalMemory},
            {"memory_bandwidth_gbs", d.memoryBandwidthGBs},
            {"limits",
             {{"max_threads_per_block", l.maxThreadsPerBlock},
              {"max_block", dimJson(l.maxBlock)},
              {"max_grid", dimJson(l.maxGrid)},
              {"shared_per_block", l.sharedPerBlock},
              {"shared_per_block_optin", l.sharedPerBlockOptin},
              {"warp_size", l.warpSize},
              {"max_registers_per_block", l.maxRegistersPerBlock},
              {"multiprocessors", l.multiprocessors},
              {"max_threads_per_multiprocessor", l.maxThreadsPerMultiprocessor}}}};
}

json toJson(const std::vector<DeviceInfo>& devices)
{
    json list = json::array();
    for (const auto& d : devices)
        list.push_back(toJson(d));
    return list;
}

json toJson(const DevicesReport& report)
{
    return {{"devices", toJson(report.devices)}, {"driver", report.noDriver ? json(*report.noDriver) : json(nullptr)}};
}

DeviceInfo deviceInfoFromJson(const json& j)
try {
    DeviceInfo d;
    d.id = value<std::string>(j, "id", "");
    d.name = value<std::string>(j, "name", "");
    d.ccMajor = value<int>(j, "cc_major", 0);
    d.ccMinor = value<int>(j, "cc_minor", 0);
    d.totalMemory = value<std::size_t>(j, "total_memory", 0);
    d.memoryBandwidthGBs = value<double>(j, "memory_bandwidth_gbs", 0.0);
    if (j.contains("limits")) {
        const json& l = j["limits"];
        DeviceLimits& o = d.limits;
        o.maxThreadsPerBlock = value<int>(l, "max_threads_per_block", o.maxThreadsPerBlock);
        if (l.contains("max_block"))
            o.maxBlock = dimFromJson(l["max_block"]);
        if (l.contains("max_grid"))
            o.maxGrid = dimFromJson(l["max_grid"]);
        o.sharedPerBlock = value<std::size_t>(l, "shared_per_block", o.sharedPerBlock);
        o.sharedPerBlockOptin = value<std::size_t>(l, "shared_per_block_optin", o.sharedPerBlockOptin);
        o.warpSize = value<int>(l, "warp_size", o.warpSize);
        o.maxRegistersPerBlock = value<int>(l, "max_registers_per_block", o.maxRegistersPerBlock);
        o.multiprocessors = value<int>(l, "multiprocessors", o.multiprocessors);
        o.maxThreadsPerMultiprocessor = value<int>(l, "max_threads_per_multiprocessor", o.maxThreadsPerMultiprocessor);
    }
    return d;
} catch (const json::exception& e) {
    unreadable("device", e);
}

namespace {

json checksJson(const std::vector<CheckResult>& results)
{
    json checks = json::array();
    for (const auto& c : results) {
        json mism = json::array();
        for (const auto& m : c.firstMismatches)
            mism.push_back({{"index", m.index}, {"got", m.got}, {"expected", m.expected}});
        checks.push_back({{"buffer", c.buffer},
                          {"expect", c.expect},
                          {"passed", c.passed},
                          {"checked", c.checked},
                          {"mismatches", c.mismatches},
                          {"max_abs_error", c.maxAbsError},
                          {"max_rel_error", c.maxRelError},
                          {"first_mismatches", mism}});
    }
    return checks;
}

std::vector<CheckResult> checksFromJson(const json& list)
{
    std::vector<CheckResult> out;
    for (const auto& c : list) {
        CheckResult cr;
        cr.buffer = value<std::string>(c, "buffer", "");
        cr.expect = value<std::string>(c, "expect", "");
        cr.passed = value<bool>(c, "passed", false);
        cr.checked = value<std::size_t>(c, "checked", 0);
        cr.mismatches = value<std::size_t>(c, "mismatches", 0);
        cr.maxAbsError = value<double>(c, "max_abs_error", 0.0);
        cr.maxRelError = value<double>(c, "max_rel_error", 0.0);
        for (const auto& m : c.value("first_mismatches", json::array()))
            cr.firstMismatches.push_back(
                {value<std::size_t>(m, "index", 0), value<double>(m, "got", 0.0), value<double>(m, "expected", 0.0)});
        out.push_back(std::move(cr));
    }
    return out;
}

// The buffers' metadata; their contents travel as .npy files or binary frames.
json buffersJson(const std::vector<BufferResult>& list)
{
    json buffers = json::array();
    for (const auto& b : list)
        buffers.push_back({{"name", b.name},
                           {"dtype", toString(b.data.dtype())},
                           {"count", b.data.count()},
                           {"shape", b.shape},
                           {"direction", toString(b.direction)}});
    return buffers;
}

std::vector<BufferResult> buffersFromJson(const json& list)
{
    std::vector<BufferResult> out;
    for (const auto& b : list) {
        BufferResult br;
        br.name = value<std::string>(b, "name", "");
        br.direction = enumFromString(value<std::string>(b, "direction", "inout"), kDirections, "direction");
        br.shape = value<std::vector<std::size_t>>(b, "shape", {});
        const auto dtype = parseDType(value<std::string>(b, "dtype", "f32"));
        if (!dtype)
            throw Error(ErrorCategory::Protocol, "buffers: unknown dtype \"" + b.value("dtype", "") + "\"");
        // Contents travel separately; the metadata keeps the dtype and count.
        br.data = HostBuffer(*dtype, 0);
        out.push_back(std::move(br));
    }
    return out;
}

} // namespace

json toJson(const RunResult& r) { return toJson(r, std::string()); }

json toJson(const RunResult& r, const std::string& source)
{
    json lines = json::array();
    for (const auto& l : r.printf.lines) {
        json line = {{"block", dimJson(l.block)}, {"thread", dimJson(l.thread)}, {"text", l.text}};
        if (!l.step.empty())
            line["step"] = l.step;
        lines.push_back(std::move(line));
    }
    const json checks = checksJson(r.checks);
    const json buffers = buffersJson(r.buffers);
    const RunTimings& t = r.timings;
    json j = {
        {"ok", r.ok},
        {"device", toJson(r.device)},
        {"compile", toJson(r.compile)},
        {"launch", {{"grid", dimJson(r.grid)}, {"block", dimJson(r.block)}, {"shared_bytes", r.sharedBytes}}},
        {"fault", r.fault ? faultJson(*r.fault) : json(nullptr)},
        {"printf",
         {{"raw", r.printf.raw}, {"lines", lines}, {"untagged", r.printf.untagged}, {"truncated", r.printf.truncated}}},
        {"timings",
         {{"compile_ms", t.compileMs},
          {"module_load_ms", t.moduleLoadMs},
          {"h2d_ms", t.h2dMs},
          {"d2h_ms", t.d2hMs},
          {"kernel_ms", t.kernelMs},
          {"min_ms", t.minMs},
          {"median_ms", t.medianMs},
          {"mean_ms", t.meanMs},
          {"bytes_moved", t.bytesMoved},
          {"gbps", t.gbps},
          {"method", t.detail.method},
          {"method_note", t.detail.methodNote},
          {"median_ci_ms", {t.detail.ciLowMs, t.detail.ciHighMs}},
          {"median_ci_level", t.detail.ciLevel},
          {"runs", t.kernelMs.size()},
          {"warmup_runs", t.detail.warmupRuns},
          {"warmup_settled", t.detail.warmupSettled},
          {"l2_flushed", t.detail.l2Flushed},
          {"sm_clock_mhz",
           {{"before", t.detail.smClockBeforeMhz},
            {"after", t.detail.smClockAfterMhz},
            {"max", t.detail.smClockMaxMhz}}}}},
        {"checks", checks},
        {"buffers", buffers},
        {"warnings", r.warnings}};
    // Present only for a document of steps.
    if (!r.steps.empty()) {
        json steps = json::array();
        for (const StepResult& st : r.steps) {
            json step = {{"path", st.path},
                         {"kind", st.kind},
                         {"name", st.name},
                         {"kernel", st.kernel},
                         {"grid", dimJson(st.grid)},
                         {"block", dimJson(st.block)},
                         {"shared_bytes", st.sharedBytes},
                         {"runs", st.runs},
                         {"kernel_ms", st.kernelMs},
                         {"total_ms", st.totalMs},
                         {"checks", checksJson(st.checks)}};
            if (!st.buffers.empty()) // only for the steps a run asked for (step_buffers)
                step["buffers"] = buffersJson(st.buffers);
            if (st.profile) // a launch of a profiled run
                step["profile"] = toJson(*st.profile, source);
            steps.push_back(std::move(step));
        }
        j["steps"] = std::move(steps);
        j["stopped"] = r.stopped.empty() ? json(nullptr) : json(r.stopped);
        j["fault_step"] = r.faultStep.empty() ? json(nullptr) : json(r.faultStep);
    }
    // Present only when profiled (the simulator, on request).
    if (r.profile)
        j["profile"] = toJson(*r.profile, source);
    // Only when the run asked for a check (--check): what it found, maybe nothing.
    if (r.check != CheckTool::None) {
        json findings = json::array();
        for (const auto& f : r.findings)
            findings.push_back(findingJson(f));
        j["check"] = toString(r.check);
        j["findings"] = std::move(findings);
    }
    return j;
}

RunResult runResultFromJson(const json& j)
try {
    RunResult r;
    r.ok = value<bool>(j, "ok", false);
    if (j.contains("device"))
        r.device = deviceInfoFromJson(j["device"]);
    if (j.contains("compile"))
        r.compile = compileResultFromJson(j["compile"]);
    if (j.contains("launch")) {
        const json& l = j["launch"];
        r.grid = dimFromJson(l.value("grid", json::array()));
        r.block = dimFromJson(l.value("block", json::array()));
        r.sharedBytes = value<std::uint32_t>(l, "shared_bytes", 0);
    }
    if (j.contains("fault") && !j["fault"].is_null())
        r.fault = faultFromJson(j["fault"]);
    if (j.contains("printf")) {
        const json& p = j["printf"];
        r.printf.raw = value<std::string>(p, "raw", "");
        r.printf.untagged = value<std::vector<std::string>>(p, "untagged", {});
        r.printf.truncated = value<bool>(p, "truncated", false);
        for (const auto& l : p.value("lines", json::array()))
            r.printf.lines.push_back({dimFromJson(l.value("block", json::array())),
                                      dimFromJson(l.value("thread", json::array())), value<std::string>(l, "text", ""),
                                      value<std::string>(l, "step", "")});
    }
    if (j.contains("timings")) {
        const json& t = j["timings"];
        RunTimings& o = r.timings;
        o.compileMs = value<double>(t, "compile_ms", 0.0);
        o.moduleLoadMs = value<double>(t, "module_load_ms", 0.0);
        o.h2dMs = value<double>(t, "h2d_ms", 0.0);
        o.d2hMs = value<double>(t, "d2h_ms", 0.0);
        o.kernelMs = value<std::vector<double>>(t, "kernel_ms", {});
        o.minMs = value<double>(t, "min_ms", 0.0);
        o.medianMs = value<double>(t, "median_ms", 0.0);
        o.meanMs = value<double>(t, "mean_ms", 0.0);
        o.bytesMoved = value<std::uint64_t>(t, "bytes_moved", 0);
        o.gbps = value<double>(t, "gbps", 0.0);
        TimingDetail& d = o.detail;
        d.method = value<std::string>(t, "method", "");
        d.methodNote = value<std::string>(t, "method_note", "");
        const auto ci = value<std::vector<double>>(t, "median_ci_ms", {});
        if (ci.size() == 2) {
            d.ciLowMs = ci[0];
            d.ciHighMs = ci[1];
        }
        d.ciLevel = value<double>(t, "median_ci_level", 0.0);
        d.warmupRuns = value<int>(t, "warmup_runs", 0);
        d.warmupSettled = value<bool>(t, "warmup_settled", false);
        d.l2Flushed = value<bool>(t, "l2_flushed", false);
        if (t.contains("sm_clock_mhz") && t["sm_clock_mhz"].is_object()) {
            const json& c = t["sm_clock_mhz"];
            d.smClockBeforeMhz = value<int>(c, "before", 0);
            d.smClockAfterMhz = value<int>(c, "after", 0);
            d.smClockMaxMhz = value<int>(c, "max", 0);
        }
    }
    r.checks = checksFromJson(j.value("checks", json::array()));
    for (const auto& st : j.value("steps", json::array())) {
        StepResult sr;
        sr.path = value<std::string>(st, "path", "");
        sr.kind = value<std::string>(st, "kind", "");
        sr.name = value<std::string>(st, "name", "");
        sr.kernel = value<std::string>(st, "kernel", "");
        sr.grid = dimFromJson(st.value("grid", json::array()));
        sr.block = dimFromJson(st.value("block", json::array()));
        sr.sharedBytes = value<std::uint32_t>(st, "shared_bytes", 0);
        sr.runs = value<int>(st, "runs", 0);
        sr.kernelMs = value<std::vector<double>>(st, "kernel_ms", {});
        sr.totalMs = value<double>(st, "total_ms", 0.0);
        sr.checks = checksFromJson(st.value("checks", json::array()));
        sr.buffers = buffersFromJson(st.value("buffers", json::array()));
        if (st.contains("profile") && !st["profile"].is_null())
            sr.profile = kernelProfileFromJson(st["profile"]);
        r.steps.push_back(std::move(sr));
    }
    if (j.contains("stopped") && !j["stopped"].is_null())
        r.stopped = value<std::string>(j, "stopped", "");
    if (j.contains("fault_step") && !j["fault_step"].is_null())
        r.faultStep = value<std::string>(j, "fault_step", "");
    r.buffers = buffersFromJson(j.value("buffers", json::array()));
    r.warnings = value<std::vector<std::string>>(j, "warnings", {});
    r.check = parseCheckTool(value<std::string>(j, "check", "none")).value_or(CheckTool::None);
    for (const auto& f : j.value("findings", json::array()))
        r.findings.push_back(findingFromJson(f));
    if (j.contains("profile") && !j["profile"].is_null())
        r.profile = kernelProfileFromJson(j["profile"]);
    return r;
} catch (const json::exception& e) {
    unreadable("run result", e);
}

} // namespace kw
