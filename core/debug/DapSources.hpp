#pragma once
// The kernel's files as a Debug Adapter Protocol client names them. A document whose
// source lies in a file (`source_file`) gives that file's real path, so the editor opens
// it and its breakpoints come back under it; a source written inside the document has
// no file, so it is offered by reference (the client asks for its text with the
// `source` request) under the name it is compiled under. An included file is given by
// its path where it exists.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace kw::debug {

class DapSources {
public:
    static constexpr int kInlineSource = 1; // the sourceReference of a document's inline source

    // `sourceFile`: the document's source_file (empty for an inline source), relative to
    // `folder`, the document's folder; `sourceName`: the name it is compiled under.
    DapSources(std::filesystem::path folder, const std::string& sourceFile, std::string sourceName,
               std::string sourceText);

    // A DAP Source for a file of the kernel's line table (Location::file).
    nlohmann::json source(const std::string& file) const;
    // The file a breakpoint of `source` (a DAP Source) names, as DebugSession reads it:
    // empty for the kernel's own source.
    std::string breakpointFile(const nlohmann::json& source) const;
    // A key that names the same file for every request about it (setBreakpoints replaces
    // the breakpoints of one file).
    std::string key(const nlohmann::json& source) const;
    // The text of a source given by reference.
    std::optional<std::string> content(int reference) const;

private:
    std::filesystem::path folder_;
    std::filesystem::path mainPath_; // empty for an inline source
    std::string sourceName_, sourceText_;

    bool isMain(const std::string& file) const;
};

} // namespace kw::debug
