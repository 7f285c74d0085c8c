#pragma once
// An expression of the debugger (a breakpoint's condition, a column of `lanes`, `print`)
// evaluated for one lane of a warp. Its names: threadIdx.x|y|z, blockIdx.*, blockDim.*,
// gridDim.*, lane, warp; the source's variables where the kernel was compiled with -G
// (SourceVariables: NAME, NAME@LINE for a hidden outer one, an array's element as
// NAME(i)); the kernel's PTX registers by name (%r5, %f2, %p1, %tid.x: as
// their declared types read them); and a document buffer's element as name(i), read
// from the launch's memory. Operators are kw::Expression's (muparser's arithmetic,
// comparisons, && and ||, with C's % and shifts).
#include "debug/DebugTypes.hpp"
#include "debug/LanePredicate.hpp"
#include "debug/SourceVariables.hpp"
#include "doc/Expression.hpp"
#include "launch/LaunchTypes.hpp"
#include "sim/PtxModule.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kw::sim {
struct Warp;
}

namespace kw::debug {

class LaneExpression {
public:
    // `pc` picks between registers of one name in different inlined functions (the
    // innermost frame's first). `buffers` must outlive the expression (their bytes may
    // change, their storage not). Throws kw::Error naming an unknown name.
    // `sources`: the source's variables (null without -G); a variable the text names
    // must have a place at `pc`, else the text is refused ("not available here").
    LaneExpression(const std::string& text, const sim::Function& fn, std::uint32_t pc,
                   const std::vector<BufferArg>& buffers, const SourceVariables* sources = nullptr);
    ~LaneExpression();
    LaneExpression(const LaneExpression&) = delete;
    LaneExpression& operator=(const LaneExpression&) = delete;

    double evaluate(const sim::Warp& w, int lane) const;
    // The first of `lanes` (a mask) for which the expression is not zero, or -1 (a
    // breakpoint's condition).
    int firstTrue(const sim::Warp& w, std::uint32_t lanes) const;
    const std::string& text() const { return text_; }
    // Whether firstTrue compares all lanes at once (LanePredicate) rather than lane by lane.
    bool compiled() const { return predicate_.has_value(); }
    // When the text is a register's name alone: its index (so it prints as its type does).
    std::optional<std::uint32_t> singleRegister() const { return single_; }
    // When the text is a source variable's name alone (so it prints as its type does).
    bool singleSource() const { return singleSource_.has_value(); }
    LaneValue sourceValueOf(const sim::Warp& w, int lane) const;

    // The register named `name` (with its %) as seen at `pc`, if the kernel has one.
    static std::optional<std::uint32_t> findRegister(const sim::Function& fn, const std::string& name,
                                                     std::uint32_t pc);

private:
    struct Bound {
        enum class Kind : std::uint8_t { Register, ThreadIdx, BlockIdx, BlockDim, GridDim, Lane, Warp, Source } kind;
        std::uint32_t index = 0; // register, the component 0..2, or the source variable
        sim::PtxType type = sim::PtxType::None;
        bool used = true;
        double values[1] = {}; // the lane's value (an array: muparser reads through a pointer)
    };
    struct BufferRead {
        const BufferArg* buffer = nullptr;
        std::string name;
    };
    struct SourceRead {
        VisibleVariable variable;
        const LaneExpression* owner = nullptr;
    };
    std::string text_;
    const sim::Function& fn_;
    std::deque<Bound> bound_; // stable addresses: muparser reads through pointers
    std::deque<BufferRead> reads_;
    std::deque<SourceRead> sources_;
    std::optional<std::size_t> singleSource_;
    mutable const sim::Warp* warp_ = nullptr; // the lane being evaluated, for an array's element
    mutable int lane_ = 0;
    std::unique_ptr<Expression> expr_;
    std::optional<LanePredicate> predicate_; // the text in the simple form: firstTrue without muparser
    std::optional<std::uint32_t> single_;

    static double readElement(void* read, double index);
    static double readSourceElement(void* read, double index);
    // The bound names' values of lanes[0..n) into their slots 0..n.
    void fill(const sim::Warp& w, const int* lanes, int n) const;
};

} // namespace kw::debug
