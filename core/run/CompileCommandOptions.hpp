#pragma once
// `kwb-run compile`'s options as the command line gives them. A new flag is a new
// field here, bound in the program's option definitions and read by the command.
#include <string>
#include <vector>

namespace kw {

struct CompileCommandOptions {
    std::string file;                  // FILE.cu or FILE.kwb
    std::string arch;                  // --arch; empty: ArchChoice
    std::vector<std::string> defines;  // -D NAME[=VALUE]
    std::vector<std::string> includes; // -I folder (the user's own choice: trusted)
    bool json = false;                 // --json: one JSON object
    bool trust = false;                // --trust: the document's options and files as they are
    std::string emit;                  // --emit: "", "ptx" or "cubin"
    std::string device;                // --device: whose occupancy a document's launch is shown for
};

} // namespace kw
