#include "compile/IncludeGate.hpp"

#include "compile/BuiltinHeaders.hpp"
#include "compile/IncludeDirective.hpp"
#include "compile/SourceLexer.hpp"
#include "compile/SourceReadings.hpp"
#include "util/Error.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace kw {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxHeaders = 1000;
constexpr std::uintmax_t kMaxHeaderBytes = 64u << 20;

// The directive as the preprocessor sees it: splices joined, comments blanked.
std::string cleanDirective(std::string_view raw)
{
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == '\\' && i + 1 < raw.size() && raw[i + 1] == '\n') {
            ++i;
            continue;
        }
        if (c == '\\' && i + 2 < raw.size() && raw[i + 1] == '\r' && raw[i + 2] == '\n') {
            i += 2;
            continue;
        }
        if (c == '/' && i + 1 < raw.size() && raw[i + 1] == '*') {
            const std::size_t end = raw.find("*/", i + 2);
            i = end == std::string_view::npos ? raw.size() : end + 1;
            out += ' ';
            continue;
        }
        if (c == '/' && i + 1 < raw.size() && raw[i + 1] == '/')
            break;
        if (c == '"') { // a quoted header name may hold "/*"
            const std::size_t end = raw.find('"', i + 1);
            const std::size_t stop = end == std::string_view::npos ? raw.size() : end + 1;
            out.append(raw.substr(i, stop - i));
            i = stop - 1;
            continue;
        }
        out += c;
    }
    return out;
}

std::size_t skipSpace(const std::string& s, std::size_t p)
{
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\f' || s[p] == '\v'))
        ++p;
    return p;
}

// Where the directive's name begins, after '#' or '%:' and spaces; npos when `d` is none.
std::size_t directiveName(const std::string& d)
{
    std::size_t p = skipSpace(d, 0);
    if (d.compare(p, 1, "#") == 0)
        p += 1;
    else if (d.compare(p, 2, "%:") == 0)
        p += 2;
    else
        return std::string::npos;
    return skipSpace(d, p);
}

// A name as it may be shown: control characters (a NUL would cut the message) as \xNN.
std::string shown(const std::string& name)
{
    std::string out;
    for (const char c : name) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            static const char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[(static_cast<unsigned char>(c) >> 4) & 0xf];
            out += hex[static_cast<unsigned char>(c) & 0xf];
        } else {
            out += c;
        }
    }
    return out;
}

std::string readAll(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Directives are found by the lexer, so none inside a comment or string counts;
// `%:include` (a digraph) is a directive too, and the lexer only knows '#'.
struct Found {
    int line;
    int column; // of the directive's first character
    std::string text;
};

std::vector<Found> directivesOf(std::string_view text)
{
    std::vector<Found> out;
    const auto tokens = lexSource(text);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const auto& t = tokens[i];
        if (t.kind == SourceToken::Kind::Directive) {
            out.push_back({t.line, t.column, cleanDirective(t.text)});
        } else if (t.kind == SourceToken::Kind::Punct && text.substr(t.offset, 2) == "%:") {
            const std::size_t eol = text.find('\n', t.offset);
            const std::size_t n = eol == std::string_view::npos ? text.npos : eol - t.offset;
            out.push_back({t.line, t.column, cleanDirective(text.substr(t.offset, n))});
        }
    }
    return out;
}

class Walk {
public:
    Walk(const ConfinedFolder& folder, const std::vector<fs::path>& userDirs, const std::vector<fs::path>& installed)
        : folder_(folder)
        , userDirs_(userDirs)
        , installed_(installed)
        , installedFolder_(fs::path(), installed)
    {
    }

    void file(std::string_view text, const std::string& displayName, const fs::path& dir, int depth)
    {
        if (depth > kMaxDepth)
            refuse(displayName, 1, "includes are nested more than " + std::to_string(kMaxDepth) + " deep");
        // Every way the preprocessor may read the text (trigraphs, splices, line ends).
        for (const std::string& reading : SourceReadings::of(text))
            directives(reading, displayName, dir, depth);
    }

    AdmittedIncludes result;

private:
    void directives(std::string_view text, const std::string& displayName, const fs::path& dir, int depth)
    {
        for (const auto& d : directivesOf(text)) {
            try {
                directive(d, displayName, dir, depth);
            } catch (const Error& e) {
                if (!keepGoing_ || e.category() != ErrorCategory::Untrusted)
                    throw;
                result.refused.push_back(
                    {e.path().value_or(displayName), e.line().value_or(0), 0, Severity::Error, e.what(), {}, {}});
            }
        }
    }

    void directive(const Found& d, const std::string& displayName, const fs::path& dir, int depth)
    {
        checkHasInclude(d.text, displayName, d.line);
        checkLine(d.text, displayName, d.line);
        const IncludeDirective inc = IncludeDirective::read(d.text);
        if (!inc.isInclude())
            return;
        if (inc.computed)
            refuse(displayName, d.line,
                   "an #include whose file name comes from a macro cannot be checked; write the name in quotes");
        const std::size_t at = d.text.find(inc.quoted ? '"' : '<');
        const int column = d.column + static_cast<int>(at == std::string::npos ? 0 : at);
        include(inc, displayName, d.line, column, dir, depth);
    }

public:
    bool keepGoing_ = false;

private:
    [[noreturn]] static void refuse(const std::string& file, int line, const std::string& why)
    {
        throw Error(ErrorCategory::Untrusted, why, file, line);
    }

    // `__has_include("/x")` would probe a file outside; its argument obeys the include rules,
    // and one from a macro cannot be checked.
    void checkHasInclude(const std::string& d, const std::string& file, int line)
    {
        for (std::size_t p = d.find("__has_include"); p != std::string::npos; p = d.find("__has_include", p + 1)) {
            std::size_t open = p + std::string_view("__has_include").size();
            if (d.compare(open, 5, "_next") == 0)
                open += 5;
            open = skipSpace(d, open);
            const std::size_t q = open < d.size() && d[open] == '(' ? skipSpace(d, open + 1) : std::string::npos;
            if (q == std::string::npos || q >= d.size() || (d[q] != '"' && d[q] != '<'))
                refuse(file, line,
                       "__has_include without a file name in quotes or <> cannot be checked; write the name out");
            const char close = d[q] == '"' ? '"' : '>';
            const std::size_t end = d.find(close, q + 1);
            if (end == std::string::npos)
                continue;
            const fs::path name(d.substr(q + 1, end - q - 1));
            if (!ConfinedFolder::staysInside(name))
                refuse(file, line,
                       "__has_include(\"" + shown(name.string()) + "\") names a file outside the document's folder");
        }
    }

    // `#line 1 "/etc/passwd"` would make the compiler's messages name any file.
    static void checkLine(const std::string& d, const std::string& file, int line)
    {
        const std::size_t p = directiveName(d);
        if (p == std::string::npos)
            return;
        const bool named
            = d.compare(p, 4, "line") == 0 && (p + 4 >= d.size() || !std::isalnum((unsigned char)d[p + 4]));
        if (named && d.find_first_not_of("0123456789 \t\r\f\v", p + 4) != std::string::npos)
            refuse(file, line,
                   "#line may give only a line number here: a file name in it would make the compiler's "
                   "messages name another file");
    }

    void include(const IncludeDirective& inc, const std::string& file, int line, int column, const fs::path& dir,
                 int depth)
    {
        if (BuiltinHeaders::has(inc.name))
            return; // handed to NVRTC from memory
        const fs::path name(inc.name);
        std::vector<fs::path> candidates;
        if (name.is_absolute()) {
            candidates.push_back(name);
        } else {
            if (inc.quoted)
                candidates.push_back(dir);
            candidates.insert(candidates.end(), userDirs_.begin(), userDirs_.end());
            candidates.insert(candidates.end(), installed_.begin(), installed_.end());
        }
        std::string spelled = "\""; // built in steps: GCC 12 warns falsely (-Wrestrict) on a + b + c here
        spelled += shown(inc.name);
        spelled += '"';
        for (const auto& base : candidates) {
            const fs::path p = name.is_absolute() ? name : base / name;
            // Installed headers first: they are readable from anywhere.
            const auto installed = installedFolder_.resolveFile(p, {});
            if (installed.status == ConfinedFolder::Status::Inside) {
                if (inc.quoted) // NVRTC would try the working folder before the installed ones
                    addHeader(inc.name, "#include \"" + installed.path.generic_string() + "\"\n", installed.path, file,
                              line);
                return;
            }
            const auto own = folder_.resolveFile(p, {});
            switch (own.status) {
            case ConfinedFolder::Status::Inside: ownHeader(inc.name, own.path, file, line, depth); return;
            case ConfinedFolder::Status::Outside:
                if (!ConfinedFolder::staysInside(name) || base == dir)
                    refuse(file, line, "#include " + spelled + " " + ConfinedFolder::explain(own.status));
                continue;                            // a search folder simply lacks it
            case ConfinedFolder::Status::NotRegular: // a FIFO would block NVRTC: an error, never opened
                result.missing.push_back(
                    {file,
                     line,
                     column,
                     Severity::Error,
                     "#include " + spelled + ": not a regular file (a FIFO, device or folder is never read)",
                     {},
                     {}});
                return;
            case ConfinedFolder::Status::Missing: continue;
            }
        }
        if (inc.quoted)
            result.absent.push_back(
                {file,
                 line,
                 column,
                 Severity::Error,
                 "cannot open source file " + spelled
                     + " (looked in the document's folder, its include folders and the installed headers)",
                 {},
                 {}});
        // An angle include found nowhere: NVRTC searches only the installed
        // folders and its own headers, and reports it.
    }

    void ownHeader(const std::string& spelled, const fs::path& path, const std::string& file, int line, int depth)
    {
        std::error_code ec;
        const auto size = fs::file_size(path, ec);
        if (ec || size > kMaxHeaderBytes)
            refuse(file, line,
                   "#include \"" + spelled + "\" is larger than " + std::to_string(kMaxHeaderBytes >> 20) + " MiB");
        if (!addHeader(spelled, {}, path, file, line))
            return; // seen before
        std::string text = readAll(path);
        result.headers.back().text = text;
        result.files.push_back({spelled, path, text});
        this->file(text, spelled, path.parent_path(), depth + 1);
    }

    // False when this name was admitted before for the same file.
    bool addHeader(const std::string& spelled, std::string text, const fs::path& path, const std::string& file,
                   int line)
    {
        auto [it, fresh] = byName_.emplace(spelled, path);
        if (!fresh) {
            if (it->second != path)
                refuse(file, line, "two different files are included as \"" + spelled + "\"; give them distinct names");
            return false;
        }
        if (result.headers.size() >= kMaxHeaders)
            refuse(file, line, "more than " + std::to_string(kMaxHeaders) + " headers are included");
        result.headers.push_back({spelled, std::move(text)});
        return true;
    }

    const ConfinedFolder& folder_;
    const std::vector<fs::path>& userDirs_;
    const std::vector<fs::path>& installed_;
    ConfinedFolder installedFolder_;
    std::map<std::string, fs::path> byName_;
};

} // namespace

IncludeGate::IncludeGate(const ConfinedFolder& folder, std::vector<fs::path> userDirs,
                         std::vector<fs::path> installedDirs)
    : folder_(folder)
    , userDirs_(std::move(userDirs))
    , installedDirs_(std::move(installedDirs))
{
}

AdmittedIncludes IncludeGate::admit(std::string_view source, const std::string& sourceName) const
{
    return walk(source, sourceName, false);
}

AdmittedIncludes IncludeGate::admitAll(std::string_view source, const std::string& sourceName) const
{
    return walk(source, sourceName, true);
}

AdmittedIncludes IncludeGate::walk(std::string_view source, const std::string& sourceName, bool keepGoing) const
{
    Walk walk(folder_, userDirs_, installedDirs_);
    walk.keepGoing_ = keepGoing;
    // A source_file in a subfolder finds its quoted includes beside it, as NVRTC
    // finds them beside a file it opened.
    const fs::path sourceDir = fs::path(sourceName).parent_path();
    const bool besideSource = !sourceDir.empty() && ConfinedFolder::staysInside(sourceDir) && !folder_.root().empty();
    walk.file(source, sourceName, besideSource ? folder_.root() / sourceDir : folder_.root(), 0);
    return std::move(walk.result);
}

} // namespace kw
