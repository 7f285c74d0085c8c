#pragma once
// The source's variables at a pc of the simulator's function, from the DWARF of PTX
// compiled with -G: which are in scope in the innermost call frame there, under which
// name, and where each one's value is now (a register, the thread's .local frame,
// shared or global memory), or why it has none here. Labels and registers are those
// of that call frame (a device function the simulator inlined at several calls has
// its own copy at each). A value is never guessed: a variable whose place is not known
// at this pc is "not available here".
#include "compile/PtxDebugInfo.hpp"
#include "sim/PtxModule.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kw::debug {

struct VisibleVariable {
    // As expressions name it: the source's name, or NAME@LINE for an outer variable that
    // an inner one of the same name hides (LINE: the outer one's declaration).
    std::string name;
    const dwarf::SourceVariable* source = nullptr;
    enum class Where : std::uint8_t { Register, Local, Shared, Global, Nowhere } where = Where::Nowhere;
    std::uint32_t reg = 0;     // Register: the simulator's register index
    std::uint64_t address = 0; // Local: offset in the thread's frame; Shared: offset; Global: address
    std::string why;           // Nowhere: the reason ("not available here", unreadable DWARF)
    // A member's type (NAME.x, at its offset from the variable's address), else null.
    const dwarf::SourceType* member = nullptr;
    // The type its value is read as: the variable's, or the member's.
    const dwarf::SourceType& type() const { return member ? *member : source->type; }
};

// `v`'s member `name` (a struct's), placed at its offset; nullopt when its type has no
// member of that name. Members of a struct held in a register have no place (said why).
std::optional<VisibleVariable> memberOf(const VisibleVariable& v, const std::string& name);

class SourceVariables {
public:
    SourceVariables(dwarf::PtxDebugInfo info, const sim::Module& module, const sim::Function& fn);

    // The variables and parameters in scope at `pc` in its innermost call frame,
    // parameters first, then in the order they are declared.
    std::vector<VisibleVariable> at(std::uint32_t pc) const;
    // A name as an expression uses it at `pc`: one of at(pc), or a variable of the
    // module (a __shared__ or __device__ array); NAME.x.y for a struct's members.
    std::optional<VisibleVariable> find(const std::string& name, std::uint32_t pc) const;

private:
    dwarf::PtxDebugInfo info_;
    const sim::Module& module_;
    const sim::Function& fn_;
    std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> labels_;    // (frame, label) -> pc
    std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> registers_; // (frame, name) -> index
    std::map<std::pair<std::uint32_t, std::string>, std::uint64_t> locals_;    // (frame, name) -> offset

    std::optional<std::uint32_t> labelPc(std::uint32_t frame, const std::string& label) const;
    // Whether pc lies in every scope of v (its frame's labels); throws nothing.
    bool inScope(const dwarf::SourceVariable& v, std::uint32_t frame, std::uint32_t pc, std::string& why) const;
    VisibleVariable place(const dwarf::SourceVariable& v, std::uint32_t frame, std::uint32_t pc) const;
    VisibleVariable resolve(const dwarf::SourceVariable& v, const dwarf::VariableLocation& at,
                            std::uint32_t frame) const;
};

} // namespace kw::debug
