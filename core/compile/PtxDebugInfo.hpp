#pragma once
// The source's variables as the DWARF of PTX compiled with -G describes them: for each
// variable and parameter its name, type, the PTX function it belongs to, the code
// ranges of the scopes around it (between labels of that function) and where its value
// is (one place throughout, a location list, or none: optimized away). A variable whose
// type or place this reader cannot read keeps the reason instead, so that it is shown
// as unreadable and never with a wrong value.
#include "compile/DwarfLocation.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kw::dwarf {

class DwarfDieTree;
struct Die;

struct SourceMember;

struct SourceType {
    enum class Kind : std::uint8_t { Signed, Unsigned, Float, Bool, Pointer, Array, Struct, Other } kind = Kind::Other;
    std::string name;        // as the source spells it: "unsigned int", "const float *", "float[256]"
    std::uint32_t size = 0;  // bytes; an array's element's
    std::uint64_t count = 0; // an array: its elements (0: unknown, as for extern __shared__ float a[])
    // An array's element kind (the kind above is Array).
    Kind element = Kind::Other;
    // A struct's or class's data members in order (an array of structs: its element's).
    std::vector<SourceMember> members;
    // Why the members cannot be read (a bit-field, a member without an offset), or empty.
    std::string membersUnreadable;
};

struct SourceMember {
    std::string name;
    std::uint64_t offset = 0; // bytes from the start of the struct
    SourceType type;
};

struct LabelRange {
    std::string begin;
    std::string end;
};

struct SourceVariable {
    std::string name;
    SourceType type;
    std::uint32_t line = 0; // of its declaration
    bool parameter = false;
    std::string function;           // the PTX function (its mangled name); empty: a variable of the module
    std::vector<LabelRange> scopes; // the lexical blocks around it, innermost first
    // Where its function's body begins (its first lexical block), when it is known:
    // before it the prologue has not yet loaded the parameters into their registers.
    std::string bodyBegin;
    std::optional<VariableLocation> location; // one place throughout its scope
    std::vector<LocationRange> ranges;        // ... or a place per range of code
    std::uint32_t addressClass = 0;           // NVIDIA's DW_AT_address_class (6 local, 8 shared...)
    std::string unreadable;                   // why its place or type cannot be read
};

class PtxDebugInfo {
public:
    // The variables of a -G module, or none when the PTX carries no .debug_info.
    // Throws kw::Error when the DWARF itself cannot be read (a form or version it does
    // not know).
    static std::optional<PtxDebugInfo> read(std::string_view ptx);

    const std::vector<SourceVariable>& variables() const { return variables_; }

private:
    std::vector<SourceVariable> variables_;
};

} // namespace kw::dwarf
