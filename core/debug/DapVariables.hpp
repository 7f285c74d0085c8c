#pragma once
// What a Debug Adapter Protocol client reads at a stop, as scopes and variables over a
// DebugSession: "Locals" (the source's variables in scope, by name, for the focused
// lane; only where the kernel was compiled with -G), "Lane L" (the focused lane's thread
// indices), "PTX registers" (the focused lane's registers), "Lanes" (each register,
// with its first lanes' values), "Shared memory" (the block's shared words, with their
// banks) and "Buffers" (the document's buffers as they are in the launch's memory,
// element by element). A variable with one number per lane, and an evaluated
// expression, expands to its value in all 32 lanes of the warp; a struct to its members
// and a small array to its elements, each in turn a variable.
//
// A variablesReference names a warp and what to read of it, and means something only
// until the launch moves: reset() at every stop, as the protocol has it.
#include "debug/DebugSession.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kw::debug {

class DapVariables {
public:
    explicit DapVariables(DebugSession& session);

    void reset() { refs_.clear(); }
    // The scopes of the focused warp.
    nlohmann::json scopes();
    // The children of `reference`: `start` and `count` page an indexed list (count 0: all,
    // up to a bound that keeps one answer small).
    nlohmann::json variables(int reference, std::size_t start, std::size_t count);
    // `expression` for the focused lane: {result, type, variablesReference} (its 32 lanes).
    nlohmann::json evaluate(const std::string& expression);
    // A watchable element named by a child of `reference` or, with reference 0, by an
    // expression ("NAME(i)", "shared OFFSET [TYPE]"): its WatchSpec and its description.
    std::optional<std::pair<WatchSpec, std::string>> watchable(int reference, const std::string& name) const;

    static constexpr std::size_t kMostChildren = 4096;

private:
    enum class Kind : std::uint8_t { Locals, Parts, Lane, Registers, Lanes, Shared, Buffers, ExpressionLanes, Buffer };
    struct Ref {
        Kind kind;
        std::uint32_t warp = 0;
        std::string name; // the expression, or the buffer
    };
    DebugSession& session_;
    std::vector<Ref> refs_;

    int refer(Kind kind, std::string name = {});
    const Ref* find(int reference) const;
    std::vector<std::string> registers() const;
    // The locals, or (`parent`) the parts of one: a struct's members, a small array's elements.
    nlohmann::json localVariables(const std::string& parent);
    static void collectParts(const SourceVariableView& v, const std::string& parent,
                             std::vector<SourceVariableView>& out);
    nlohmann::json laneVariables();
    nlohmann::json registerVariables();
    nlohmann::json laneValue(const std::string& expression);
    nlohmann::json lanesVariables();
    nlohmann::json expressionLanes(const std::string& expression);
    nlohmann::json sharedVariables(std::size_t start, std::size_t count);
    nlohmann::json bufferVariables();
    nlohmann::json bufferElements(const std::string& buffer, std::size_t start, std::size_t count);
};

// "f32 128 · 0x43000000": a shared word has no type; its bits read as f32 and as hex.
std::string sharedWordText(std::uint32_t bits);

} // namespace kw::debug
