#include "debug/DebugLaunch.hpp"

#include "sim/SimChecks.hpp"

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

void DebugLaunch::restart()
{
    run_.reset();
    setup_.reset();
    for (std::size_t i = 0; i < buffers_.size(); ++i) // in place: the bytes keep their address
        std::copy(initial_[i].begin(), initial_[i].end(), buffers_[i].data.bytes().begin());
    warnings_.clear();
    setup_ = std::make_unique<sim::LaunchSetup>(module_, fn_, buffers_, args_, config_,
                                                sim::LaunchSettings{kernelName_, false, 1}, warnings_);
    setup_->state().deadline = std::chrono::steady_clock::time_point::max();
    run_ = std::make_unique<sim::LaunchRun>(setup_->state());
    run_->begin();
    run_->makeStepper();
}

sim::LaunchStatus DebugLaunch::advance(const sim::Budget& budget) { return run_->advance(budget); }

std::uint64_t DebugLaunch::position() const
{
    const sim::BlockRunner* r = const_cast<sim::LaunchRun&>(*run_).stepper();
    return r ? r->instructions() : 0;
}

std::vector<CheckFinding> DebugLaunch::findings()
{
    LaunchReport report;
    setup_->findings().report(report);
    return report.findings;
}

} // namespace kw::debug
