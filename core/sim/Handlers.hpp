#pragma once
// Handlers for memory, atomic and warp-collective instructions (arithmetic handlers
// are templates local to the decoder).
#include "sim/PtxModule.hpp"

#include <cstdint>

namespace kw::sim {

enum class AtomOp : std::uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class ShflMode : std::uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : std::uint8_t { All, Any, Uni, Ballot };
enum class ReduxOp : std::uint8_t { Add, Min, Max, And, Or, Xor };

// Memory: in.mode holds the element size in bytes, in.vec the vector width.
void hLoad(Warp& w, const Instr& in, std::uint32_t mask);
void hStore(Warp& w, const Instr& in, std::uint32_t mask);
void hLoadParam(Warp& w, const Instr& in, std::uint32_t mask);
// Atomics: in.mode holds the AtomOp; red has no destination (d[0] is the sink).
void hAtom16(Warp& w, const Instr& in, std::uint32_t mask);
void hAtom32(Warp& w, const Instr& in, std::uint32_t mask);
void hAtom64(Warp& w, const Instr& in, std::uint32_t mask);

void hShfl(Warp& w, const Instr& in, std::uint32_t mask);
void hVote(Warp& w, const Instr& in, std::uint32_t mask);
void hActivemask(Warp& w, const Instr& in, std::uint32_t mask);
void hRedux(Warp& w, const Instr& in, std::uint32_t mask);
void hMatchAny(Warp& w, const Instr& in, std::uint32_t mask);
void hMatchAll(Warp& w, const Instr& in, std::uint32_t mask);
void hClock(Warp& w, const Instr& in, std::uint32_t mask);

} // namespace kw::sim
