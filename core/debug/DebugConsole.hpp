#pragma once
// The debugger's command language (docs/debugger.md): one line in, its output text
// out, over a DebugSession. No I/O of its own: `kwb-run debug` feeds it standard input,
// tests feed it scripts. The same commands in the same order give the same text.
#include "debug/DebugSession.hpp"

#include <string>
#include <vector>

namespace kw::debug {

class DebugConsole {
public:
    explicit DebugConsole(DebugSession& session);

    // Runs one command; its output, each line ending in '\n'. A refused command gives
    // "error: ..." and changes nothing.
    std::string execute(const std::string& line);
    // `quit` was read.
    bool done() const { return done_; }
    // `word` is a command's name or alias (the first word of a line this runs).
    static bool isCommand(const std::string& word);
    // Where the launch stands: the stop, its line and the focused warp's lanes.
    std::string stopText(const Stop& s) const;

    // A command line as its one command name (aliases resolved) and its arguments.
    static std::pair<std::string, std::string> split(const std::string& line);
    // What `lanes ARGS` shows: its expressions. Throws kw::Error(Usage) for none.
    static std::vector<std::string> laneExpressions(const std::string& args);
    // What `shared ARGS` shows. Throws kw::Error(Usage) for what is not a range.
    struct SharedRange {
        DType type = DType::U32;
        std::uint32_t offset = 0, count = 0;
    };
    SharedRange sharedRange(const std::string& args) const;

private:
    DebugSession& session_;
    bool done_ = false;

    std::string run(const std::string& command, const std::string& args);
    std::string breakCommand(const std::string& args);
    std::string watchCommand(const std::string& args, bool reads);
    std::string lanesCommand(const std::string& args) const;
    std::string variablesCommand() const;
    // The focused warp's lanes, a column per expression (values as `columns` give them).
    std::string laneTable(const std::vector<std::string>& exprs,
                          const std::vector<std::vector<LaneValue>>& columns) const;
    std::string sharedCommand(const std::string& args) const;
    std::string outputCommand() const;
    std::string ptxCommand() const;
    std::string infoCommand(const std::string& args) const;
    std::string warpText() const;
    std::string locationText(const Location& where) const;
    std::string breakpointPlace(const BreakpointInfo& b) const; // its file and line
    std::string withoutFolder(std::string text) const;
};

// "0-15,17,20-31": the lanes of a mask.
std::string laneList(std::uint32_t lanes);
// 32 characters, lane 0 first: '#' active, 'd' waiting at another pc (diverged),
// 'b' at a barrier, 'x' exited, '.' not a thread of the block.
std::string laneMap(const WarpView& w);

} // namespace kw::debug
