#include "debug/DebugLaunch.hpp"

#include "sim/SimChecks.hpp"
#include "sim/Warp.hpp"

#include <algorithm>

#include <chrono>

namespace kw::debug {

DebugLaunch::DebugLaunch(std::shared_ptr<const sim::Module> module, const sim::Function& fn, std::string kernelName,
                         std::vector<BufferArg> buffers, std::vector<LaunchArg> args, LaunchConfig config)
    : module_(std::move(module))
    , fn_(fn)
    , kernelName_(std::move(kernelName))
    , buffers_(std::move(buffers))
    , args_(std::move(args))
    , config_(std::move(config))
{
    for (const auto& b : buffers_)
        initial_.push_back(b.data.bytes());
    restart();
}

DebugLaunch::~DebugLaunch() = default;

std::size_t Checkpoint::bytes() const
{
    std::size_t n = 0;
    for (const auto& r : regions)
        n += r.size();
    for (const sim::BlockPrintf& o : output)
        n += o.text.size() + o.records.size() * sizeof(sim::PrintfRecord);
    return n + registers.size() * sizeof(std::uint64_t) + local.size();
}

Checkpoint DebugLaunch::checkpoint(std::uint64_t block, std::uint64_t position)
{
    Checkpoint c;
    c.block = block;
    c.position = position;
    for (const sim::MemRegion& r : setup_->state().mem.regions())
        c.regions.push_back(r.readOnly ? std::vector<std::uint8_t>() // never written
                                       : std::vector<std::uint8_t>(r.host, r.host + r.size));
    c.output = runner().printfOutput();
    c.printfBytes = setup_->state().printfBytes.load();
    c.printfTruncated = setup_->state().printfTruncated.load();
    for (const sim::Warp& w : runner().warps()) {
        c.registers.insert(c.registers.end(), w.R, w.R + std::size_t(fn_.numRegs) * 32);
        c.local.insert(c.local.end(), w.local, w.local + std::size_t(32) * w.localBytes);
    }
    return c;
}

void DebugLaunch::restart(const Checkpoint* from)
{
    run_.reset();
    setup_.reset();
    for (std::size_t i = 0; i < buffers_.size(); ++i) // in place: the bytes keep their address
        std::copy(initial_[i].begin(), initial_[i].end(), buffers_[i].data.bytes().begin());
    warnings_.clear();
    setup_ = std::make_unique<sim::LaunchSetup>(module_, fn_, buffers_, args_, config_,
                                                sim::LaunchSettings{kernelName_, false, 1, {}}, warnings_);
    setup_->state().deadline = std::chrono::steady_clock::time_point::max();
    setup_->state().onFinding = [this](const CheckFinding& f) {
        if (onFinding_)
            onFinding_(f);
    };
    run_ = std::make_unique<sim::LaunchRun>(setup_->state());
    base_ = 0;
    if (from) {
        const auto& regions = setup_->state().mem.regions();
        for (std::size_t i = 0; i < regions.size() && i < from->regions.size(); ++i)
            if (!regions[i].readOnly)
                std::copy(from->regions[i].begin(), from->regions[i].end(), regions[i].host);
        run_->startAt(from->block);
        base_ = from->position;
    }
    run_->begin();
    sim::BlockRunner& runner = run_->makeStepper();
    writers_ = std::make_unique<SharedWriters>(setup_->state().sharedSize);
    runner.observe(*writers_);
    if (from) { // the output so far, and what it took of the printf buffer
        runner.printfOutput() = from->output;
        setup_->state().printfBytes = from->printfBytes;
        setup_->state().printfTruncated = from->printfTruncated;
    }
    if (from && !from->registers.empty()) {
        std::size_t r = 0, l = 0;
        for (const sim::Warp& w : runner.warps()) {
            const std::size_t regs = std::size_t(fn_.numRegs) * 32, local = std::size_t(32) * w.localBytes;
            std::copy_n(from->registers.begin() + std::ptrdiff_t(r), regs, w.R);
            std::copy_n(from->local.begin() + std::ptrdiff_t(l), local, w.local);
            r += regs;
            l += local;
        }
    }
}

sim::LaunchStatus DebugLaunch::advance(const sim::Budget& budget) { return run_->advance(budget); }

std::uint64_t DebugLaunch::position() const
{
    const sim::BlockRunner* r = const_cast<sim::LaunchRun&>(*run_).stepper();
    return base_ + (r ? r->instructions() : 0);
}

std::vector<CheckFinding> DebugLaunch::findings()
{
    LaunchReport report;
    setup_->findings().report(report);
    return report.findings;
}

} // namespace kw::debug
