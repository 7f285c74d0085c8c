#pragma once
// Operations on resident buffers recorded once and replayed as a whole: the passes of a
// loop whose steps do not change from pass to pass (a CUDA graph on a GPU). Made by
// ResidentBuffers::record; the buffers it was recorded on must outlive it.
#include "launch/LaunchTypes.hpp"
#include "launch/ResidentOp.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kw {

struct ReplayReport {
    bool ok = true;
    std::optional<Fault> fault;
    // Which op faulted, when the backend knows (replayed one at a time); else none.
    std::optional<std::size_t> faultOp;
    double ms = 0; // device time of all the replays together
    // Each launch's own time, replay after replay, when they are launched one at a time;
    // empty when only the whole is measured (a graph).
    std::vector<double> launchMs;
    std::vector<std::string> warnings;
};

class RecordedPass {
public:
    virtual ~RecordedPass() = default;
    // How the ops are replayed, for the run's notes ("one CUDA graph of 12 operations",
    // "step by step: ..."); empty when there is nothing to say (a backend without graphs).
    virtual std::string how() const = 0;
    virtual std::size_t size() const = 0;
    // Takes `ops`' launch dimensions and arguments for the next replays. `ops` must match
    // the recorded ones in kind, kernel and order; false when they do not, or when the
    // backend cannot change what differs (then record again).
    virtual bool update(const std::vector<ResidentOp>& ops) = 0;
    // Runs the ops `times` times in a row and waits for them, at most `timeLimitSeconds`
    // (0: no limit). A fault ends the replays; the report says so.
    virtual ReplayReport replay(std::size_t times, double timeLimitSeconds) = 0;
};

} // namespace kw
