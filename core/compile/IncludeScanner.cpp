#include "compile/IncludeScanner.hpp"

#include "compile/IncludeDirective.hpp"

#include "compile/SourceLexer.hpp"

#include <fstream>
#include <set>
#include <sstream>

namespace kw {

namespace fs = std::filesystem;

namespace {

bool readFile(const fs::path& path, std::string& out)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

class Scanner {
public:
    explicit Scanner(const std::vector<fs::path>& dirs)
        : dirs_(dirs)
    {
    }

    // `includer` is the file being scanned, empty for the top-level source.
    void scan(std::string_view text, const fs::path& includer, int depth)
    {
        const fs::path currentDir = includer.parent_path();
        if (depth > 64)
            return; // include cycle without guards; NVRTC reports it
        for (const auto& tok : lexSource(text)) {
            if (tok.kind != SourceToken::Kind::Directive)
                continue;
            const IncludeDirective inc = IncludeDirective::read(tok.text);
            if (!inc.isPlainInclude())
                continue;
            const std::string& name = inc.name;
            const bool quoted = inc.quoted;
            std::vector<fs::path> candidates;
            if (quoted) // NVRTC looks for the top-level source's quoted includes in the working folder
                candidates.push_back(currentDir.empty() ? fs::path(name) : currentDir / name);
            for (const auto& d : dirs_)
                candidates.push_back(d / name);
            bool found = false;
            for (const auto& c : candidates) {
                std::error_code ec;
                const auto status = fs::status(c, ec);
                if (fs::exists(status) && !fs::is_regular_file(status)) {
                    if (seen_.insert(c.string()).second)
                        files_.push_back({name, c, {}, true, includer, tok.line});
                    found = true;
                    break;
                }
                if (!fs::is_regular_file(status))
                    continue;
                fs::path canonical = fs::weakly_canonical(c, ec);
                found = true;
                if (!seen_.insert(canonical.string()).second)
                    break;
                IncludedFile f{name, canonical, {}, false, includer, tok.line};
                readFile(canonical, f.contents);
                std::string contents = f.contents;
                files_.push_back(std::move(f));
                scan(contents, canonical, depth + 1);
                break;
            }
            if (!found && quoted && missing_.insert(name).second)
                files_.push_back({name, {}, {}, false, includer, tok.line}); // NVRTC will complain; keyed as missing
        }
    }

    std::vector<IncludedFile> files_;

private:
    const std::vector<fs::path>& dirs_;
    std::set<std::string> seen_, missing_;
};

} // namespace

std::vector<IncludedFile> scanIncludes(std::string_view source, const std::vector<fs::path>& searchDirs)
{
    Scanner s(searchDirs);
    s.scan(source, {}, 0);
    return std::move(s.files_);
}

} // namespace kw
