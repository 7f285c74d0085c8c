#pragma once
// A debug session's answer (docs/protocol.md, "Sessions", kind `debug`) as the window's
// debugger views read it: decoded once, each member checked for its type, so no view
// reads the runner's JSON itself.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace kw {

struct DebugLocation {
    QString file, function, instruction;
    int line = 0; // 0: no line
    int pc = 0;
};

struct DebugWarp {
    struct Group {
        QString state; // active, diverged, barrier, exited
        std::uint32_t lanes = 0;
        DebugLocation where;
    };
    std::uint64_t block = 0;
    int warp = 0;
    std::uint32_t exists = 0, active = 0;
    bool done = false, atBarrier = false;
    DebugLocation where;
    std::vector<Group> groups;

    // The state of one lane: "active", "diverged", "barrier", "exited" or "" (no thread).
    QString laneState(int lane) const;
};

struct DebugFrame {
    QString function;
    DebugLocation where;
};

struct DebugBreakpoint {
    int id = 0;
    int line = 0;      // where it was placed
    int askedLine = 0; // the line it was asked for
    QString condition;
    std::uint64_t ignore = 0, hits = 0;
    bool allLanes = false;
    int pc = -1; // at one instruction (`break *PC`); -1: at a line

    // Where it was asked, as `break` takes it: "18", or "*24" for an instruction.
    QString place() const { return pc >= 0 ? QString("*%1").arg(pc) : QString::number(askedLine); }
};

struct DebugWatch {
    int id = 0;
    QString buffer; // empty: shared memory
    std::uint64_t index = 0;
    QString type;
    bool reads = false;
    std::uint64_t hits = 0;
};

struct DebugLanes {
    QStringList expressions;
    // values[expression][lane]: the text, empty where the lane is no thread.
    std::vector<std::vector<QString>> texts;
    std::vector<std::vector<double>> numbers;
};

// A source variable in scope at the focused warp's pc (-G): its values per lane, or why it
// has none here.
struct DebugLocal {
    QString name, type;
    int line = 0;
    bool parameter = false;
    bool available = true;
    QString why;                               // why no value, where not available
    std::vector<std::optional<QString>> texts; // 32: none where the lane is no thread or no value
    std::vector<double> numbers;               // 32
};

struct DebugSharedWord {
    std::uint32_t offset = 0, bank = 0;
    double value = 0;
    QString text;
};

struct DebugReply {
    QString text;
    struct {
        QString reason, message;
        std::uint64_t position = 0, block = 0;
        int warp = 0, lane = -1;
        std::optional<QString> watchWriter; // a watch hit: "block B warp W lane L at FILE:LINE"
    } stop;
    bool ended = false;
    std::uint64_t focusBlock = 0;
    int focusWarp = 0, focusLane = 0;
    std::uint64_t blocks = 0;
    int warpsPerBlock = 0;
    std::uint32_t sharedBytes = 0;
    std::optional<DebugWarp> warp; // none once the launch has finished
    std::vector<DebugWarp> warps;
    std::vector<DebugFrame> frames;
    std::vector<DebugBreakpoint> breakpoints;
    std::vector<DebugWatch> watches;
    std::optional<DebugLanes> lanes;
    std::vector<DebugLocal> locals; // empty without -G
    std::optional<QString> sharedType;
    std::vector<DebugSharedWord> shared;
    // The kernel's instructions as the simulator runs them (after a `ptx` command), pc = index.
    std::optional<std::vector<DebugLocation>> ptx;

    // Throws std::exception for a member of the wrong type or a missing one.
    static DebugReply fromJson(const nlohmann::json& result);
};

} // namespace kw
