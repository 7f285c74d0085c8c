#include "export/ExportPlan.hpp"

#include "compile/IncludeDirective.hpp"
#include "doc/CheckEvaluator.hpp"
#include "doc/DefineValues.hpp"
#include "util/Error.hpp"
#include "util/Text.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace kw::exporting {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool inside(const fs::path& root, const fs::path& p)
{
    const fs::path r = fs::weakly_canonical(root), q = fs::weakly_canonical(p);
    const auto rel = q.lexically_relative(r);
    return !rel.empty() && *rel.begin() != "..";
}

// The document's own headers the source reaches through quoted includes, found beside
// the including file, then in the document's folder and its include folders.
void collectHeaders(const std::string& text, const fs::path& includerDir, const Document& doc, ExportSource& out,
                    std::set<fs::path>& seen)
{
    const fs::path base = doc.baseDir();
    for (const std::string_view line : splitLines(text)) {
        const std::string t(trim(line));
        if (t.empty() || (t[0] != '#' && t[0] != '%'))
            continue;
        const IncludeDirective d = IncludeDirective::read(t);
        if (!d.isPlainInclude() || !d.quoted)
            continue;
        std::vector<fs::path> places{includerDir, base};
        for (const auto& dir : doc.options.includeDirs)
            places.push_back(fs::path(dir).is_relative() ? base / dir : fs::path(dir));
        for (const auto& place : places) {
            std::error_code ec;
            const fs::path p = place / d.name;
            if (!fs::is_regular_file(p, ec))
                continue;
            const fs::path canonical = fs::weakly_canonical(p);
            if (seen.count(canonical))
                break;
            seen.insert(canonical);
            if (!inside(base, p)) {
                out.headersLeftOut.push_back(d.name);
                break;
            }
            const std::string body = readText(p);
            out.headers.emplace_back(
                fs::weakly_canonical(p).lexically_relative(fs::weakly_canonical(base)).generic_string(), body);
            collectHeaders(body, p.parent_path(), doc, out, seen);
            break;
        }
    }
}

} // namespace

std::string ExportPlan::identifier(const std::string& name)
{
    std::string s;
    for (char c : name)
        s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        s = "_" + s;
    return s;
}

std::size_t ExportPlan::bufferIndex(const std::string& name) const
{
    for (std::size_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].name == name)
            return i;
    throw Error(ErrorCategory::Document, "no buffer named \"" + name + "\"");
}

ExportPlan ExportPlan::make(const Document& doc)
{
    ExportPlan plan;
    plan.doc_ = doc;
    plan.prepared_ = PreparedRun::fromDocument(doc);
    const PreparedRun& p = plan.prepared_;
    for (std::size_t i = 0; i < doc.buffers.size(); ++i) {
        const BufferSpec& spec = doc.buffers[i];
        ExportBuffer b;
        b.name = spec.name;
        b.dtype = spec.dtype;
        b.initial = p.buffers[i].data;
        b.count = b.initial.count();
        b.shape = p.shapes[i];
        b.direction = spec.direction;
        b.global = spec.global;
        b.init = InitialiserTranslation::choose(spec, b.initial, p.variables);
        plan.buffers_.push_back(std::move(b));
    }

    ExportSource& src = plan.source_;
    src.fileName = doc.sourceName();
    const DeviceSource device = HostCodeFilter::deviceOnly(doc.source);
    src.blanked = device.removed;
    src.text = device.removed.empty() ? doc.source : device.text;
    std::set<fs::path> seen;
    if (!doc.baseDir().empty())
        collectHeaders(src.text, doc.baseDir(), doc, src, seen);

    VariableScope scope = VariableScope::evaluate(doc.variables);
    CompileOptions options = doc.options;
    options.defines = resolveDefines(doc.options.defines, scope);
    options.includeDirs.clear(); // the exporters add the folder's own
    options.lineInfo = true;
    options.tagPrintf = false;
    plan.nvrtcOptions_ = options.toNvrtcArgs();

    std::vector<CheckSpec> all = doc.checks;
    std::function<void(const std::vector<StepSpec>&)> gather = [&](const std::vector<StepSpec>& steps) {
        for (const StepSpec& s : steps) {
            all.insert(all.end(), s.checks.begin(), s.checks.end());
            gather(s.steps);
        }
    };
    gather(doc.steps);
    plan.usesInitial_ = CheckEvaluator::usesInitialData(all);
    return plan;
}

} // namespace kw::exporting
