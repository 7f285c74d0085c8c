#include "run/SanitizerXmlReader.hpp"

#include "util/Error.hpp"
#include "util/Text.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace kw {

namespace {

std::string text(const pugi::xml_node& node, const char* path)
{
    return node.first_element_by_path(path).text().as_string();
}

std::string lower(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::optional<std::uint64_t> number(std::string s)
{
    s = std::string(trim(s));
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.erase(0, 2);
        base = 16;
    }
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

// <x>..</x><y>..</y><z>..</z> under `node`; nullopt when absent.
std::optional<Dim3> dim(const pugi::xml_node& node)
{
    if (!node)
        return std::nullopt;
    const auto x = number(text(node, "x")), y = number(text(node, "y")), z = number(text(node, "z"));
    if (!x)
        return std::nullopt;
    return Dim3{std::uint32_t(*x), std::uint32_t(y.value_or(0)), std::uint32_t(z.value_or(0))};
}

std::string dimText(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

struct Place {
    std::string file;
    int line = 0;
    std::string str() const
    {
        if (file.empty())
            return line > 0 ? fmt::format("line {}", line) : std::string("an unknown line");
        return line > 0 ? fmt::format("{}:{}", file, line) : file;
    }
};

class Reader {
public:
    Reader(CheckTool tool, const SanitizerXmlReader::PathMap& mapPath)
        : tool_(tool)
        , mapPath_(mapPath)
    {
    }

    void record(const pugi::xml_node& r)
    {
        ++report.records;
        const std::string kind = std::string(trim(text(r, "kind")));
        if (kind == "Precise")
            memoryError(r);
        else if (kind == "Initcheck")
            located(r, initcheckKind(r), text(r, "what/text"));
        else if (kind == "Synccheck")
            synccheck(r);
        else if (kind == "Hazard")
            hazard(r);
        else if (kind == "Analysis")
            analysis(r);
        else if (kind == "Api")
            api(r);
        else
            unknown(r, kind);
    }

    SanitizerReport report;

private:
    Place place(const pugi::xml_node& where) const
    {
        Place p;
        std::string path = text(where, "path");
        if (path.empty())
            path = text(where, "file");
        p.file = mapPath_ && !path.empty() ? mapPath_(path) : path;
        p.line = int(number(text(where, "line")).value_or(0));
        return p;
    }

    CheckFinding finding(std::string kind, std::string message) const
    {
        CheckFinding f;
        f.tool = tool_;
        f.kind = std::move(kind);
        f.message = std::move(message);
        return f;
    }

    // Adds `f`, or counts it on the finding with the same key.
    void add(const std::string& key, CheckFinding f, std::uint32_t count = 1)
    {
        const auto it = index_.find(key);
        if (it == index_.end()) {
            f.count = count;
            index_.emplace(key, report.findings.size());
            report.findings.push_back(std::move(f));
            return;
        }
        std::uint32_t& c = report.findings[it->second].count;
        c = std::uint32_t(std::min<std::uint64_t>(std::uint64_t(c) + count, std::numeric_limits<std::uint32_t>::max()));
    }

    static std::string levelNote(const pugi::xml_node& r)
    {
        const std::string level = std::string(trim(text(r, "level")));
        return level.empty() || level == "Error" ? std::string() : " (" + lower(level) + ")";
    }

    // " at kernel.cu:4 by thread (63,0,0) in block (0,0,0)"
    static std::string who(const Place& at, const std::optional<Dim3>& thread, const std::optional<Dim3>& block)
    {
        std::string s = " at " + at.str();
        if (thread)
            s += " by thread " + dimText(*thread);
        if (block)
            s += " in block " + dimText(*block);
        return s;
    }

    // A record with <who> and <where>: memcheck, initcheck, synccheck, and the unknown.
    void located(const pugi::xml_node& r, const std::string& kind, std::string what)
    {
        const Place at = place(r.child("where"));
        CheckFinding f = finding(kind, "");
        f.file = at.file;
        f.line = at.line;
        f.thread = dim(r.first_element_by_path("who/threadIdx"));
        f.block = dim(r.first_element_by_path("who/blockIdx"));
        f.address = number(text(r, "what/address"));
        what = std::string(trim(what));
        if (what.empty())
            what = kind;
        f.message = what + who(at, f.thread, f.block);
        if (f.address)
            f.message += fmt::format(", address {:#x}", *f.address);
        f.message += levelNote(r);
        add(fmt::format("{}|{}|{}", kind, at.file, at.line), std::move(f));
    }

    void memoryError(const pugi::xml_node& r)
    {
        // "out of bounds" / "misaligned" + "read" / "write"
        std::string error = std::string(trim(text(r, "what/error")));
        const std::string direction = lower(std::string(trim(text(r, "what/direction"))));
        if (error.empty())
            error = "invalid";
        std::string kind = direction.empty() ? error + " access" : error + " " + direction;
        const std::string space = std::string(trim(text(r, "what/space")));
        if (!space.empty() && space != "__global__")
            kind += " (" + space + ")";
        located(r, kind, text(r, "what/text"));
    }

    static std::string initcheckKind(const pugi::xml_node& r)
    {
        const std::string t = lower(text(r, "what/text"));
        if (t.find("uninitialized") != std::string::npos)
            return t.find("write") != std::string::npos ? "uninitialized write" : "uninitialized read";
        return t.empty() ? "initcheck report" : std::string(trim(t));
    }

    void synccheck(const pugi::xml_node& r)
    {
        const std::string t = std::string(trim(text(r, "what/text")));
        const std::string type = std::string(trim(text(r, "what/type")));
        std::string kind = lower(type).find("divergent") != std::string::npos ? "divergent barrier"
            : t.empty()                                                       ? "synccheck report"
                                                                              : lower(t);
        located(r, kind, type.empty() ? t : (t.empty() ? type : t + ": " + type));
    }

    static std::string accessWord(std::string access)
    {
        access = lower(std::string(trim(access)));
        return access.empty() ? "access" : access;
    }

    // Racecheck, one access pair: "Potential RAW hazard at __shared__ 0x47c in block (0,0,0):
    // write by thread (31,0,0) at kernel.cu:14, read by thread (32,0,0) at kernel.cu:15".
    void hazard(const pugi::xml_node& r)
    {
        const pugi::xml_node what = r.child("what");
        const pugi::xml_node first = what.child("thread0"), second = what.child("thread1");
        const Place a = place(first.child("where")), b = place(second.child("where"));
        CheckFinding f = finding("shared-memory race", "");
        f.file = b.file;
        f.line = b.line;
        f.otherFile = a.file;
        f.otherLine = a.line;
        f.block = dim(what.first_element_by_path("common/blockIdx"));
        f.thread = dim(second.child("threadIdx"));
        f.address = number(text(what, "common/address"));
        const auto firstThread = dim(first.child("threadIdx"));
        std::string type = std::string(trim(text(what, "common/type")));
        f.message = fmt::format("Potential {} hazard", type.empty() ? std::string("shared-memory") : type);
        if (f.address)
            f.message += fmt::format(" at __shared__ {:#x}", *f.address);
        if (f.block)
            f.message += " in block " + dimText(*f.block);
        f.message += fmt::format(": {} by thread {} at {}, {} by thread {} at {}", accessWord(text(first, "access")),
                                 firstThread ? dimText(*firstThread) : std::string("?"), a.str(),
                                 accessWord(text(second, "access")), f.thread ? dimText(*f.thread) : std::string("?"),
                                 b.str());
        f.message += levelNote(r);
        add(raceKey(a, b), std::move(f));
    }

    // Racecheck, one pair of source lines with its number of hazards. Merges with the
    // hazards of the same lines (they located it); alone when the print limit cut them.
    void analysis(const pugi::xml_node& r)
    {
        const pugi::xml_node what = r.child("what");
        const pugi::xml_node src = what.child("source"), dst = what.child("destination");
        const Place a = place(src.child("where")), b = place(dst.child("where"));
        const std::uint32_t hazards = std::uint32_t(
            std::min<std::uint64_t>(number(text(dst, "count")).value_or(1), std::numeric_limits<std::uint32_t>::max()));
        const std::string key = raceKey(a, b);
        if (const auto it = index_.find(key); it != index_.end()) {
            std::uint32_t& c = report.findings[it->second].count;
            c = std::max(c, hazards);
            return;
        }
        std::string t = std::string(trim(text(what, "text")));
        CheckFinding f = finding("shared-memory race", "");
        f.file = b.file;
        f.line = b.line;
        f.otherFile = a.file;
        f.otherLine = a.line;
        f.message
            = fmt::format("{} between a {} at {} and a {} at {}", t.empty() ? std::string("Race") : t,
                          accessWord(text(src, "direction")), a.str(), accessWord(text(dst, "direction")), b.str())
            + levelNote(r);
        index_.emplace(key, report.findings.size());
        f.count = hazards;
        report.findings.push_back(std::move(f));
    }

    static std::string raceKey(const Place& a, const Place& b)
    {
        return fmt::format("race|{}|{}|{}|{}", a.file, a.line, b.file, b.line);
    }

    void api(const pugi::xml_node& r)
    {
        std::string t = std::string(trim(text(r, "what/text")));
        if (t.empty())
            t = "a CUDA call failed: " + std::string(trim(text(r, "what/api"))) + " "
                + std::string(trim(text(r, "what/error")));
        add("api|" + t, finding("CUDA API error", t));
    }

    // A record of a kind this reader does not know: its own text, and where, when it says.
    void unknown(const pugi::xml_node& r, const std::string& kind)
    {
        std::string t = std::string(trim(text(r, "what/text")));
        if (t.empty()) {
            // Every text the record holds, in order: never an empty message.
            std::string all;
            collectText(r, all);
            t = all.empty() ? "compute-sanitizer reported a record without text" : all;
        }
        const std::string k = kind.empty() ? "compute-sanitizer report" : lower(kind);
        if (r.child("where"))
            located(r, k, t);
        else
            add("other|" + k + "|" + t, finding(k, t + levelNote(r)));
    }

    static void collectText(const pugi::xml_node& node, std::string& out)
    {
        for (const pugi::xml_node& c : node.children()) {
            if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
                const std::string piece = std::string(trim(c.value()));
                if (!piece.empty())
                    out += (out.empty() ? "" : " ") + piece;
            } else if (c.type() == pugi::node_element && std::string_view(c.name()) != "hostStack") {
                collectText(c, out);
            }
        }
    }

    CheckTool tool_;
    const SanitizerXmlReader::PathMap& mapPath_;
    std::map<std::string, std::size_t> index_;
};

} // namespace

SanitizerReport SanitizerXmlReader::parse(std::string_view xml, CheckTool tool, const PathMap& mapPath)
{
    Reader reader(tool, mapPath);
    if (xml.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        reader.report.problem = "the report is empty";
        return reader.report;
    }
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
    if (!parsed) {
        // A report whose writer was stopped: it began but never closed.
        const bool cut = xml.find("<ComputeSanitizerOutput") != std::string_view::npos
            && xml.find("</ComputeSanitizerOutput>") == std::string_view::npos;
        reader.report.problem = cut
            ? fmt::format("the report ends early (after {} bytes)", xml.size())
            : fmt::format("the report is not valid XML at byte {}: {}", parsed.offset, parsed.description());
    }
    // A report cut short keeps what was parsed before the cut.
    const pugi::xml_node root = doc.child("ComputeSanitizerOutput");
    if (!root) {
        if (reader.report.problem.empty())
            reader.report.problem = "the report has no <ComputeSanitizerOutput> element";
        return reader.report;
    }
    for (const pugi::xml_node& r : root.children("record"))
        reader.record(r);
    return reader.report;
}

SanitizerReport SanitizerXmlReader::readFile(const std::filesystem::path& file, CheckTool tool, const PathMap& mapPath)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(ErrorCategory::Io, "cannot read compute-sanitizer's report " + file.string());
    std::ostringstream s;
    s << in.rdbuf();
    return parse(s.str(), tool, mapPath);
}

} // namespace kw
