#pragma once
// A launch set up through the simulator's own pieces (LaunchSetup, LaunchRun), so a test
// can attach observers to the block runner and advance it by budgets on this thread.
#include "sim/LaunchRun.hpp"
#include "sim/LaunchSetup.hpp"
#include "sim/PtxParser.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace kwtest {

struct SteppedLaunch {
    std::shared_ptr<const kw::sim::Module> module;
    std::vector<std::string> warnings;
    std::unique_ptr<kw::sim::LaunchSetup> launch;
    std::unique_ptr<kw::sim::LaunchRun> run;

    SteppedLaunch(const kw::KernelImage& kernel, std::vector<kw::BufferArg>& buffers,
                  const std::vector<kw::LaunchArg>& args, const kw::LaunchConfig& config)
        : module(std::make_shared<const kw::sim::Module>(kw::sim::parsePtx(kernel.ptx)))
    {
        const kw::sim::Function* fn = module->findFunction(kernel.loweredName);
        launch = std::make_unique<kw::sim::LaunchSetup>(module, *fn, buffers, args, config,
                                                        kw::sim::LaunchSettings{kernel.name, false, 1}, warnings);
        launch->state().deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        run = std::make_unique<kw::sim::LaunchRun>(launch->state());
        run->begin();
    }
    const kw::sim::Function& function() const { return *launch->state().fn; }
};

} // namespace kwtest
