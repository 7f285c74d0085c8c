// Decode functions of the memory, warp-collective, control-flow and hint rows.
#include "sim/DecodeFunctions.hpp"

#include "sim/Decoder.hpp"
#include "sim/Handlers.hpp"

#include <fmt/format.h>

namespace kw::sim {

namespace {

void memory(Decoder& d, bool store)
{
    Instr& in = d.in();
    const auto& parts = d.parts();
    const auto& ops = d.ops();
    in.space = d.space();
    for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i] == "v2")
            in.vec = 2;
        else if (parts[i] == "v4")
            in.vec = 4;
        else if (parts[i] == "v8")
            d.unsupported("8-element vector access");
    }
    const PtxType t = d.type();
    in.type = t;
    in.elemSize = std::uint8_t(sizeOf(t));
    d.need(2);
    const PtxOperand& mem = ops[store ? 0 : 1];
    const PtxOperand& val = ops[store ? 1 : 0];
    if (mem.kind != PtxOperand::Kind::Mem)
        d.unsupported("`" + d.joined() + "` without an address operand");
    std::vector<std::uint32_t> regs;
    if (val.kind == PtxOperand::Kind::Vec) {
        for (std::size_t k = 0; k < val.regs.size(); ++k) {
            if (!store && !val.elemImm[k].empty())
                d.unsupported("a load into an immediate");
            regs.push_back(d.element(val, k, t));
        }
    } else if (store) {
        regs.push_back(d.src(1, t));
    } else {
        regs.push_back(d.dst(0));
    }
    if (regs.size() != in.vec)
        d.unsupported("vector width does not match the operand list");
    in.addr = mem.reg;
    in.imm = mem.offset;
    if (mem.memSpace != Space::Generic && in.space == Space::Generic)
        in.space = mem.memSpace;
    // Call-sequence and device-function parameters live in the thread's local frame.
    if (in.space == Space::Param && mem.memSpace == Space::Local)
        in.space = Space::Local;
    for (std::size_t k = 0; k < regs.size(); ++k)
        (store ? in.a[k] : in.d[k]) = regs[k];
    in.na = in.nd = std::uint8_t(regs.size());
    if (in.space == Space::Param) {
        if (store)
            d.unsupported("st.param outside a call sequence");
        if (mem.reg != RegZero)
            d.unsupported("ld.param through a register address");
        in.fn = &hLoadParam;
        return;
    }
    in.fn = store ? &hStore : &hLoad;
}

// The access's .sem qualifier (or .volatile); an atomic without one is relaxed.
MemOrder order(Decoder& d, MemOrder none)
{
    static const std::pair<const char*, MemOrder> orders[] = {{"volatile", MemOrder::Volatile},
                                                              {"relaxed", MemOrder::Relaxed},
                                                              {"acquire", MemOrder::Acquire},
                                                              {"release", MemOrder::Release},
                                                              {"acq_rel", MemOrder::AcqRel}};
    for (const auto& [name, o] : orders)
        if (listsModifier(d.row(), name) && d.has(name))
            return o;
    return none;
}

// The address of an mbarrier (operand i): in.addr and its offset as a constant in a[2].
void barrierAddress(Decoder& d, std::size_t i)
{
    d.need(i + 1);
    const PtxOperand& mem = d.ops()[i];
    if (mem.kind != PtxOperand::Kind::Mem)
        d.unsupported(fmt::format("`{}` without an [address] operand", d.joined()));
    Instr& in = d.in();
    in.space = d.space();
    if (in.space == Space::Generic)
        in.space = mem.memSpace;
    if (in.space != Space::Generic && in.space != Space::Shared)
        d.unsupported(fmt::format("`{}`: a barrier outside shared memory", d.joined()));
    in.addr = mem.reg;
    in.a[2] = d.env().constReg(std::uint64_t(mem.offset));
}

// cp.async.bulk.dst.src{.completion} [dst], [src], size{, [mbar]}: global or shared memory
// into shared memory completing on a barrier, or shared into global memory. Its
// commit_group, wait_group and prefetch are left nothing to do: the copy is done at issue.
void bulkCopy(Decoder& d)
{
    Instr& in = d.in();
    if (d.has("commit_group") || d.has("wait_group") || (d.has("prefetch") && !d.written("tensor")))
        return; // no handler: no effect
    if (d.written("tensor"))
        d.unsupported(fmt::format("`{}`: tensor copies need a tensor map (cuTensorMapEncode), which the simulator "
                                  "does not have",
                                  d.joined()));
    if (d.written("multicast::cluster"))
        d.unsupported(fmt::format("`{}`: a copy into several blocks of a cluster", d.joined()));
    std::vector<Space> spaces; // the destination's, then the source's
    for (const std::string& p : d.parts())
        if (p == "shared" || p == "global")
            spaces.push_back(p == "shared" ? Space::Shared : Space::Global);
    d.need(3);
    const auto& ops = d.ops();
    if (spaces.size() != 2 || ops[0].kind != PtxOperand::Kind::Mem || ops[1].kind != PtxOperand::Kind::Mem)
        d.unsupported(fmt::format("`{}`", d.joined()));
    in.space = spaces[0];
    in.addr = ops[0].reg;
    in.imm = ops[0].offset;
    in.a[0] = ops[1].reg;
    in.a[2] = d.env().constReg(std::uint64_t(ops[1].offset));
    in.a[1] = d.src(2, PtxType::U32);
    if (spaces[0] == Space::Global && spaces[1] == Space::Shared) {
        in.fn = &hCpAsyncBulkToGlobal;
        return;
    }
    if (spaces[0] != Space::Shared || !d.written("mbarrier::complete_tx::bytes") || ops.size() < 4
        || ops[3].kind != PtxOperand::Kind::Mem)
        d.unsupported(fmt::format("`{}` without a barrier to complete on", d.joined()));
    in.a[3] = ops[3].reg;
    in.target = std::uint32_t(ops[3].offset); // the barrier's offset: a bulk copy branches nowhere
    in.fn = spaces[1] == Space::Global ? &hCpAsyncBulkToShared : &hCpAsyncBulkSharedToShared;
}

// shfl, vote, redux and match exist only in their .sync forms (Volta and later).
void warpSync(Decoder& d)
{
    if (!d.has("sync"))
        d.unsupported("`" + d.joined() + "` without .sync (pre-Volta warp intrinsics)");
    d.in().warpSync = true;
}

} // namespace

void decodeLoad(Decoder& d, const OpcodeInfo& row)
{
    // A loop around one of these may wait for another warp: the scheduler lets others run (BlockRunner).
    if (row.name == "ld") {
        d.in().order = order(d, MemOrder::Weak);
        d.in().polls = isStrong(d.in().order);
    }
    memory(d, false);
}

void decodeStore(Decoder& d, const OpcodeInfo&)
{
    d.in().order = order(d, MemOrder::Weak);
    memory(d, true);
}

void decodeAtomic(Decoder& d, const OpcodeInfo& row)
{
    static const std::pair<const char*, AtomOp> atomOps[] = {
        {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},   {"dec", AtomOp::Dec},
        {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor}, {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}};
    Instr& in = d.in();
    const bool red = row.name == "red";
    in.order = order(d, MemOrder::Relaxed);
    if (!red)
        in.polls = d.has("cas") || d.has("exch") || acquires(in.order);
    in.space = d.space();
    in.atomic = true;
    bool found = false;
    for (const auto& [name, op] : atomOps)
        if (d.has(name)) {
            in.atom = op;
            found = true;
        }
    if (!found)
        d.unsupported("`" + d.joined() + "`");
    if (d.has("v2") || d.has("v4") || d.has("v8"))
        d.unsupported("vector atomics");
    const PtxType t = d.type();
    in.type = t;
    const int size = sizeOf(t);
    if (size != 2 && size != 4 && size != 8)
        d.unsupported("`" + d.joined() + "` on " + std::to_string(size * 8) + "-bit data");
    if (size == 2 && in.atom != AtomOp::Add && in.atom != AtomOp::Cas && in.atom != AtomOp::Exch)
        d.unsupported("`" + d.joined() + "` on 16-bit data");
    if ((t == PtxType::F16x2 || t == PtxType::BF16x2)
        && (in.atom == AtomOp::Min || in.atom == AtomOp::Max || in.atom == AtomOp::Inc || in.atom == AtomOp::Dec))
        d.unsupported("`" + d.joined() + "` on packed 16-bit floats");
    const auto& ops = d.ops();
    std::size_t i = 0;
    if (!red)
        in.d[0] = d.dst(i++);
    d.need(i + 2);
    const PtxOperand& mem = ops[i++];
    if (mem.kind != PtxOperand::Kind::Mem)
        d.unsupported("atomic without an address operand");
    in.addr = mem.reg;
    in.imm = mem.offset;
    if (mem.memSpace != Space::Generic && in.space == Space::Generic)
        in.space = mem.memSpace;
    in.a[0] = d.src(i++, t);
    if (in.atom == AtomOp::Cas)
        in.a[1] = d.src(i, t);
    in.fn = size == 2 ? &hAtom16 : size == 4 ? &hAtom32 : &hAtom64;
}

void decodeShfl(Decoder& d, const OpcodeInfo&)
{
    static const std::pair<const char*, ShflMode> modes[]
        = {{"up", ShflMode::Up}, {"down", ShflMode::Down}, {"bfly", ShflMode::Bfly}, {"idx", ShflMode::Idx}};
    warpSync(d);
    Instr& in = d.in();
    for (const auto& [name, m] : modes)
        if (d.has(name))
            in.shfl = m;
    d.need(5);
    const auto& ops = d.ops();
    in.d[0] = ops[0].reg;
    if (ops[0].hasPair)
        in.d[1] = ops[0].reg2;
    in.a[0] = d.src(1, PtxType::B32);
    in.a[1] = d.src(2, PtxType::B32);
    in.a[2] = d.src(3, PtxType::B32);
    in.a[3] = d.src(4, PtxType::B32);
    in.fn = &hShfl;
}

void decodeVote(Decoder& d, const OpcodeInfo&)
{
    static const std::pair<const char*, VoteMode> modes[]
        = {{"all", VoteMode::All}, {"any", VoteMode::Any}, {"uni", VoteMode::Uni}, {"ballot", VoteMode::Ballot}};
    warpSync(d);
    Instr& in = d.in();
    for (const auto& [name, m] : modes)
        if (d.has(name))
            in.vote = m;
    d.need(3);
    in.d[0] = d.dst(0);
    in.a[0] = d.srcAt(1, 0, PtxType::Pred);
    in.a[1] = d.src(2, PtxType::B32);
    in.fn = &hVote;
}

void decodeActivemask(Decoder& d, const OpcodeInfo&)
{
    d.in().d[0] = d.dst(0);
    d.in().fn = &hActivemask;
}

void decodeRedux(Decoder& d, const OpcodeInfo&)
{
    static const std::pair<const char*, ReduxOp> modes[]
        = {{"add", ReduxOp::Add}, {"min", ReduxOp::Min}, {"max", ReduxOp::Max},
           {"and", ReduxOp::And}, {"or", ReduxOp::Or},   {"xor", ReduxOp::Xor}};
    warpSync(d);
    Instr& in = d.in();
    for (const auto& [name, m] : modes)
        if (d.has(name))
            in.redux = m;
    if (isFloat(d.type()))
        d.unsupported("floating-point redux");
    d.need(3);
    in.d[0] = d.dst(0);
    in.a[0] = d.src(1, d.type());
    in.a[1] = d.src(2, PtxType::B32);
    in.fn = &hRedux;
}

void decodeMatch(Decoder& d, const OpcodeInfo&)
{
    warpSync(d);
    Instr& in = d.in();
    d.need(3);
    const auto& ops = d.ops();
    in.d[0] = ops[0].reg;
    if (ops[0].hasPair)
        in.d[1] = ops[0].reg2;
    in.a[0] = d.src(1, d.type());
    in.a[1] = d.src(2, PtxType::B32);
    in.fn = d.has("all") ? &hMatchAll : &hMatchAny;
}

void decodeBra(Decoder& d, const OpcodeInfo&)
{
    d.need(1);
    const std::string& label = d.ops()[0].text;
    const int target = d.env().label(label);
    if (target < 0)
        d.unsupported("branch to unknown label " + label);
    d.in().ctrl = Ctrl::Bra;
    d.in().target = std::uint32_t(target);
}

void decodeExit(Decoder& d, const OpcodeInfo&) { d.in().ctrl = Ctrl::Exit; }
void decodeTrap(Decoder& d, const OpcodeInfo&) { d.in().ctrl = Ctrl::Trap; }

void decodeBarrier(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    if (d.has("warp")) { // bar.warp.sync membermask: a reconvergence point
        in.warpSync = true;
        d.need(1);
        in.a[0] = d.src(0, PtxType::B32);
        in.fn = &hBarWarpSync;
        return;
    }
    if (d.has("arrive"))
        d.unsupported("`" + d.joined() + "` (only bar.sync, barrier.sync and bar.red are supported)");
    const std::size_t count = d.ops().size();
    if (d.has("red")) {
        // bar.red.{popc.u32,and.pred,or.pred} d, id, {!}p: __syncthreads_count/_and/_or.
        in.barRed = d.has("popc") ? BarRedOp::Popc
            : d.has("and")        ? BarRedOp::And
            : d.has("or")         ? BarRedOp::Or
                                  : BarRedOp::None;
        if (in.barRed == BarRedOp::None || count != 3)
            d.unsupported("`" + d.joined() + "` with a thread count or unknown operation");
        in.d[0] = d.dst(0);
        in.a[0] = d.srcAt(2, 0, PtxType::Pred);
        in.ctrl = Ctrl::Bar;
        return;
    }
    if (count > 2)
        d.unsupported("`" + d.joined() + "` with more than a barrier and a thread count");
    if (count == 2) { // bar.sync id, b: runs when b names the whole block (BarrierChecks.cpp)
        in.a[1] = d.src(1, PtxType::U32);
        in.barCount = true;
    }
    in.ctrl = Ctrl::Bar;
}

// Hints: no effect on a sequentially consistent simulator.
void decodeNoEffect(Decoder&, const OpcodeInfo&) { }

// fence.sc, fence.acq_rel and membar order nothing in a sequentially consistent simulator,
// but racecheck sees them (Observer::fence). Proxy fences order other proxies' accesses only.
void decodeFence(Decoder& d, const OpcodeInfo& row)
{
    if (d.has("proxy") || (row.name == "fence" && (d.has("mbarrier_init") || d.has("op_restrict"))))
        return;
    d.in().order = MemOrder::AcqRel;
    d.in().fn = &hFence;
}

void decodeNanosleep(Decoder& d, const OpcodeInfo&) { d.in().polls = true; }

// cp.async.ca|cg.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}{, policy};
// cp.async.commit_group; cp.async.wait_group n; cp.async.wait_all; cp.async.mbarrier.arrive;
// cp.async.bulk (bulkCopy).
void decodeCpAsync(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    if (!d.has("async"))
        d.unsupported(fmt::format("instruction `{}`", d.joined()));
    if (d.has("bulk"))
        return bulkCopy(d);
    if (d.has("commit_group")) {
        in.fn = &hCpAsyncCommit;
        return;
    }
    if (d.has("wait_all")) {
        in.fn = &hCpAsyncWaitAll;
        return;
    }
    if (d.has("wait_group")) {
        d.need(1);
        if (d.ops()[0].kind != PtxOperand::Kind::Imm)
            d.unsupported(fmt::format("`{}` without an immediate group count", d.joined()));
        in.a[0] = d.src(0, PtxType::U32);
        in.fn = &hCpAsyncWait;
        return;
    }
    if (d.has("mbarrier")) {
        if (!d.has("arrive"))
            d.unsupported(fmt::format("instruction `{}`", d.joined()));
        barrierAddress(d, 0);
        in.imm = d.has("noinc");
        in.order = MemOrder::Release; // the copies' writes come before the arrival
        in.atomic = true;
        in.fn = &hCpAsyncMbarrierArrive;
        return;
    }
    if (!(d.has("ca") || d.has("cg")) || !d.has("shared") || !d.has("global"))
        d.unsupported(fmt::format("`{}`", d.joined()));
    d.need(3);
    const auto& ops = d.ops();
    if (ops[0].kind != PtxOperand::Kind::Mem || ops[1].kind != PtxOperand::Kind::Mem
        || ops[2].kind != PtxOperand::Kind::Imm)
        d.unsupported(fmt::format("`{}` without [dst], [src], cp-size", d.joined()));
    const std::uint64_t size = immediateBits(ops[2].text, PtxType::U32);
    if (size != 4 && size != 8 && size != 16)
        d.unsupported(fmt::format("`{}` of {} bytes (4, 8 or 16)", d.joined(), size));
    in.space = Space::Shared;
    in.elemSize = std::uint8_t(size);
    in.addr = ops[0].reg;
    in.imm = ops[0].offset;
    in.a[0] = ops[1].reg;
    in.a[2] = d.env().constReg(std::uint64_t(ops[1].offset));
    // The optional operand after cp-size: the source size or an ignore-src predicate (a
    // cache policy, .L2::cache_hint, is gone already: decodeInstr drops it).
    const std::size_t optional = ops.size();
    in.a[1] = d.env().constReg(size);
    if (optional > 3) {
        const PtxOperand& o = ops[3];
        if (o.kind == PtxOperand::Kind::Reg && d.env().registerType(o.reg) == PtxType::Pred) {
            in.type2 = PtxType::Pred;
            in.negMask = o.neg ? 2 : 0;
            in.a[1] = o.reg;
        } else
            in.a[1] = d.src(3, PtxType::U32);
    }
    in.fn = &hCpAsync;
}

// mbarrier.init [addr], count; .inval [addr]; .arrive{_drop}{.noComplete} state, [addr]{, count};
// .arrive.expect_tx state, [addr], bytes; .expect_tx and .complete_tx [addr], bytes;
// .test_wait{.parity} and .try_wait{.parity} complete, [addr], state|parity{, hint};
// .pending_count count, state.
void decodeMbarrier(Decoder& d, const OpcodeInfo&)
{
    Instr& in = d.in();
    if (d.has("pending_count")) {
        d.need(2);
        in.d[0] = d.dst(0);
        in.a[0] = d.src(1, PtxType::B64);
        in.fn = &hMbarrierPendingCount;
        return;
    }
    if (d.has("init") || d.has("inval")) {
        barrierAddress(d, 0);
        if (d.has("init"))
            in.a[0] = d.src(1, PtxType::U32);
        in.fn = d.has("init") ? &hMbarrierInit : &hMbarrierInval;
        return;
    }
    if (d.has("arrive") || d.has("arrive_drop")) {
        in.d[0] = d.dst(0);
        barrierAddress(d, 1);
        in.a[0] = d.ops().size() > 2 ? d.src(2, PtxType::U32) : d.env().constReg(1);
        in.imm = (d.has("arrive_drop") ? 1 : 0) | (d.has("noComplete") ? 2 : 0) | (d.has("expect_tx") ? 4 : 0);
        in.order = order(d, MemOrder::Release);
        in.atomic = true;
        in.fn = &hMbarrierArrive;
        return;
    }
    if (d.has("expect_tx") || d.has("complete_tx")) {
        barrierAddress(d, 0);
        in.a[0] = d.src(1, PtxType::U32);
        in.imm = d.has("expect_tx");
        in.order = order(d, MemOrder::Relaxed);
        in.atomic = true;
        in.fn = &hMbarrierTransaction;
        return;
    }
    if (d.has("test_wait") || d.has("try_wait")) {
        in.d[0] = d.dst(0);
        barrierAddress(d, 1);
        in.a[0] = d.src(2, d.has("parity") ? PtxType::U32 : PtxType::B64);
        in.imm = d.has("parity");
        in.order = order(d, MemOrder::Acquire);
        in.atomic = true;
        in.polls = true; // a loop around it waits for other threads: the warp yields at its branch back
        in.fn = &hMbarrierTestWait;
        return;
    }
    d.unsupported(fmt::format("instruction `{}`", d.joined()));
}

void decodeRefused(Decoder& d, const OpcodeInfo& row)
{
    d.unsupported(row.name == "brx" ? std::string("indirect branch brx.idx") : std::string(row.name));
}

} // namespace kw::sim
