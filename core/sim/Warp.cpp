#include "sim/Warp.hpp"

#include <fmt/format.h>

namespace kw::sim {

void Warp::fault(FaultKind kind, const std::string& what, int lane, const Instr& in)
{
    if (lane < 0)
        lane = mask ? __builtin_ctz(mask) : 0;
    raise(FaultEvent{kind, what, lane, in});
}

void Warp::raise(const FaultEvent& e)
{
    blk->observers.fault(*this, e);
    const FaultKind kind = e.kind;
    const std::string& what = e.what;
    const int lane = e.lane;
    const Instr& in = e.in;
    Fault f;
    f.kind = kind;
    f.block = blk->ctaid;
    f.thread = threadOf(lane);
    f.line = static_cast<int>(in.line);
    f.file = L->mod->fileName(in.file);
    const auto index = static_cast<std::size_t>(&in - fn->code.data());
    std::string where = fmt::format("block ({},{},{}) thread ({},{},{})", f.block->x, f.block->y, f.block->z,
                                    f.thread->x, f.thread->y, f.thread->z);
    std::string instr = index < fn->text.size() ? fn->text[index] : std::string();
    std::string loc = f.line ? fmt::format(" at {}:{}", f.file, f.line) : std::string();
    f.message = fmt::format("{} in {}, instruction `{}`{}", what, where, instr, loc);
    L->recordFault(std::move(f));
    stop = true;
}

std::uint8_t* Warp::misaligned(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane, const Instr& in)
{
    const std::string what = fmt::format("misaligned {} {} of {} bytes at address 0x{:x}", spaceName(sp),
                                         write ? "write" : "read", size, addr);
    raise(FaultEvent{FaultKind::MisalignedAddress, what, lane, in, true, write, addr});
    return nullptr;
}

std::uint8_t* Warp::outOfBounds(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane, const Instr& in)
{
    std::string where;
    if (sp == Space::Shared)
        where = fmt::format("shared memory holds {} bytes per block", L->sharedSize);
    else if (sp == Space::Local)
        where = fmt::format("the thread's local frame holds {} bytes", localBytes);
    else if (const MemRegion* r = L->mem.find(addr, size); r && write && r->readOnly)
        where = fmt::format("{} is read-only", r->name);
    else
        where = L->mem.describe(addr, size);
    const std::string what = fmt::format("out-of-bounds {} {} of {} bytes at address 0x{:x} ({})", spaceName(sp),
                                         write ? "write" : "read", size, addr, where);
    raise(FaultEvent{FaultKind::OutOfBounds, what, lane, in, true, write, addr});
    return nullptr;
}

void Warp::noteAccess(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane)
{
    probe->note(sp, addr, size, write, lane);
}

const MemRegion* Warp::noteGlobal(Space sp, std::uint64_t addr, std::uint32_t size, bool write, int lane)
{
    // Noted first (an access that then faults ends the launch anyway), so that a hit in
    // the region cache returns without a call.
    probe->note(sp, addr, size, write, lane);
    const MemRegion* r = probeCache_;
    if (r && addr - r->base < r->size && size <= r->size - (addr - r->base))
        return r;
    return probeMiss(addr, size);
}

const MemRegion* Warp::probeMiss(std::uint64_t addr, std::uint32_t size)
{
    const MemRegion* r = L->mem.find(addr, size);
    if (r)
        probeCache_ = r;
    return r;
}

} // namespace kw::sim
