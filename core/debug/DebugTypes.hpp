#pragma once
// What a debugger session shows and is asked for, as values: where a run stopped, the
// state of a warp's lanes, a frame, a word of shared memory, a breakpoint or a
// watchpoint. No text: the command language (DebugConsole) and other clients format them.
#include "data/DType.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kw::debug {

// The block and warp the views and the stepping commands are about, and the lane that
// `print` reads.
struct Focus {
    std::uint64_t block = 0; // linear, x fastest
    std::uint32_t warp = 0;
    std::uint32_t lane = 0;
};

enum class StopReason : std::uint8_t {
    Entry,       // the launch's first instruction
    Breakpoint,  // a breakpoint's line, its condition held
    Step,        // step, stepi, next, finish, reverse-step arrived
    Watch,       // a watched element was written (or read)
    Barrier,     // the focused block's barrier released
    Reconverged, // the focused warp's lanes run together again
    BlockBegin,  // the block asked for begins
    WarpExited,  // the focused warp's last lane exited
    BlockDone,   // the focused block ran to its end
    Finished,    // every block has run
    Fault,       // the kernel faulted: the launch cannot go on
    Finding,     // a check (--check) found something here
    Position,    // a position reached by re-execution (reverse, goto)
    Paused,      // a client interrupted a motion under way (DebugSession::interrupt)
};

const char* toString(StopReason r);

// Where an instruction is: its source line (0 when unknown) and the PTX instruction.
struct Location {
    std::string file;
    std::uint32_t line = 0;
    std::uint32_t pc = 0;
    std::string instruction;
    std::string function; // the innermost (inlined) function
};

// A watchpoint's hit: who wrote (or read) and what the element held before and after.
struct WatchHit {
    int watch = 0; // its id
    bool write = true;
    std::uint64_t block = 0;
    std::uint32_t warp = 0;
    int lane = 0;
    Location where;
    double oldValue = 0, newValue = 0;
};

struct Stop {
    StopReason reason = StopReason::Entry;
    std::uint64_t position = 0; // warp-level instructions executed since the launch began
    std::uint64_t block = 0;    // where it stopped (the warp about to execute)
    std::uint32_t warp = 0;
    int lane = -1;      // the lane that made it stop (breakpoint condition, watch, fault), -1 for none
    int breakpoint = 0; // its id, for StopReason::Breakpoint
    std::optional<WatchHit> watch;
    std::string message; // a fault's or a finding's text; why a motion ended early
};

// The lanes of a warp that share a state: running now, waiting at another pc (diverged),
// waiting at a barrier, exited.
struct LaneGroup {
    enum class State : std::uint8_t { Active, Diverged, AtBarrier, Exited };
    State state = State::Active;
    std::uint32_t lanes = 0;
    Location where; // Active, Diverged, AtBarrier: where those lanes go on
};

struct WarpView {
    std::uint64_t block = 0;
    std::uint32_t warp = 0;
    std::uint32_t exists = 0; // lanes that are threads of the block
    std::uint32_t active = 0; // the lanes executing together now
    bool done = false;        // every lane has exited
    bool atBarrier = false;   // every live lane waits at a barrier
    Location where;           // the active lanes' next instruction
    std::vector<LaneGroup> groups;
};

// One inlined call frame, innermost first; the kernel's frame is the last.
struct Frame {
    std::string function;
    Location where; // frame 0: the instruction; the others: the call's line
};

// A value of one lane: its number and its text as its type prints it.
struct LaneValue {
    bool exists = false; // the lane is a thread of the block
    double number = 0;
    std::string text;
};

// A source variable in scope at the focused warp's pc (-G), with each lane's value.
struct SourceVariableView {
    std::string name; // NAME, or NAME@LINE for an outer one an inner one hides
    std::string type; // as the source spells it
    std::uint32_t line = 0;
    bool parameter = false;
    bool available = true; // false: no value here, `why` says so
    bool scalar = false;   // one number per lane (not an array or a struct): an expression by its name
    std::string why;
    std::vector<LaneValue> lanes; // 32; a lane that is no thread of the block does not exist
    // A struct's members (NAME.x) or a small array's elements (NAME(i)), each with its lanes.
    std::vector<SourceVariableView> parts;
};

// The views with their parts after each, depth first: one row per value, as tables show them.
std::vector<SourceVariableView> flattened(const std::vector<SourceVariableView>& views);

// The last instruction of the block that wrote (stored to or an atomic on) a word of
// shared memory, and the thread that executed it.
struct SharedWriter {
    std::uint32_t warp = 0;
    std::uint32_t lane = 0;
    std::uint64_t thread = 0; // linear in the block, x fastest
    Location where;
};

struct SharedWord {
    std::uint32_t offset = 0;
    std::uint32_t bank = 0; // 4-byte banks, 32 of them
    double value = 0;
    std::string text;
    std::optional<SharedWriter> lastWriter; // none: not written since the block began
};

// A line of device printf output and the thread that printed it. A call whose text
// does not end a line ends its line all the same (as the run's printf view splits it).
struct PrintedLine {
    std::uint32_t thread = 0; // linear in the block, x fastest
    std::string text;         // without its newline
};

// What a block's threads printed (device printf), in the order they printed it.
struct DeviceOutput {
    std::uint64_t block = 0;
    bool complete = true; // false: the block under way, as far as it has run
    std::string text;
    std::vector<PrintedLine> lines;
};

// The focused block's whole shared memory as words of one type (a window's grid).
struct SharedMemoryView {
    std::uint64_t block = 0;
    std::uint32_t bytes = 0;
    DType type = DType::U32;
    std::vector<SharedWord> words;
};

enum class BreakMode : std::uint8_t {
    FirstLane, // the first lanes of a warp to arrive stop it
    AllLanes,  // the warp stops once all its live lanes have arrived
};

struct BreakpointSpec {
    std::string file; // empty: the kernel's own source
    std::uint32_t line = 0;
    std::optional<std::uint32_t> pc; // set: before this instruction (`break *PC`), not at a line
    std::string condition;           // empty: none
    std::uint64_t ignore = 0;
    BreakMode mode = BreakMode::FirstLane;
};

struct BreakpointInfo {
    int id = 0;
    BreakpointSpec spec;
    std::uint32_t line = 0; // the line it was placed on (the first with code at or after spec.line)
    std::string file;
    std::uint64_t hits = 0;
};

struct WatchSpec {
    std::string buffer;      // a document buffer; empty: shared memory
    std::uint64_t index = 0; // the element (buffer) or the byte offset (shared)
    DType type = DType::F32; // shared memory: how the word is read
    bool reads = false;      // rwatch: stop at reads, not writes
};

struct WatchInfo {
    int id = 0;
    WatchSpec spec;
    std::uint64_t hits = 0;
};

} // namespace kw::debug
