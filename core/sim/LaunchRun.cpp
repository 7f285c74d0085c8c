#include "sim/LaunchRun.hpp"

#include "sim/LaunchState.hpp"
#include "util/Elapsed.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <fmt/format.h>
#include <mutex>
#include <numeric>
#include <thread>

namespace kw::sim {

LaunchRun::LaunchRun(LaunchState& launch)
    : L_(launch)
    , blocks_(launch.grid.volume())
    , t0_(std::chrono::steady_clock::now())
{
}

LaunchRun::~LaunchRun() = default;

void LaunchRun::begin() { t0_ = std::chrono::steady_clock::now(); }

BlockRunner& LaunchRun::makeStepper()
{
    if (!stepper_) {
        stepper_ = std::make_unique<BlockRunner>(L_);
        stepperObservers_ = std::make_unique<LaunchObservers>(L_);
        stepperObservers_->attachTo(*stepper_);
    }
    return *stepper_;
}

LaunchStatus LaunchRun::advance(const Budget& budget)
{
    if (L_.stop.load(std::memory_order_relaxed)) {
        inBlock_ = false; // a stopped launch runs no block further
        return LaunchStatus::Stopped;
    }
    BlockRunner& runner = makeStepper();
    if (!inBlock_) {
        if (next_ >= blocks_)
            return LaunchStatus::Finished;
        runner.begin(next_++);
        inBlock_ = true;
    }
    switch (runner.advance(budget)) {
    case BlockStatus::Paused:
    case BlockStatus::WarpWaits: return LaunchStatus::Paused;
    case BlockStatus::Barrier: return LaunchStatus::Barrier;
    case BlockStatus::Done: inBlock_ = false; return next_ < blocks_ ? LaunchStatus::BlockDone : LaunchStatus::Finished;
    case BlockStatus::Stopped: break;
    }
    inBlock_ = false;
    return LaunchStatus::Stopped;
}

void LaunchRun::runWorkers(unsigned threads, std::vector<Output>& outputs, std::vector<std::uint64_t>& counts,
                           std::vector<std::unique_ptr<ProfileCollector>>& profiles)
{
    const std::uint64_t blocks = blocks_;
    std::atomic<std::uint64_t> nextBlock{next_};
    std::mutex errorMutex;
    std::exception_ptr error;
    auto worker = [&](unsigned id) {
        try {
            BlockRunner runner(L_);
            LaunchObservers observers(L_);
            observers.attachTo(runner);
            // Blocks are handed out in small chunks so cores stay busy to the end.
            const std::uint64_t chunk = std::max<std::uint64_t>(1, blocks / (std::uint64_t(threads) * 64));
            while (!L_.stop.load(std::memory_order_relaxed)) {
                const std::uint64_t begin = nextBlock.fetch_add(chunk);
                if (begin >= blocks)
                    break;
                const std::uint64_t end = std::min(blocks, begin + chunk);
                std::uint64_t b = begin;
                bool late = false;
                // Many short blocks never use up a warp's time slice: check the limit per block too.
                for (; b < end && !late; ++b)
                    late = !runner.run(b) || std::chrono::steady_clock::now() > L_.deadline;
                if (!L_.stop.load(std::memory_order_relaxed) && std::chrono::steady_clock::now() > L_.deadline) {
                    Fault f;
                    f.kind = FaultKind::Timeout;
                    f.message = fmt::format("the kernel ran longer than the time limit of {} s and was stopped "
                                            "({} of {} blocks finished)",
                                            L_.timeLimitSeconds, b, blocks);
                    L_.recordFault(std::move(f));
                }
            }
            outputs[id] = std::move(runner.printfOutput());
            counts[id] = runner.instructions();
            profiles[id] = observers.takeProfile();
        } catch (...) {
            std::lock_guard lock(errorMutex);
            error = std::current_exception();
            L_.stop = true;
        }
    };
    if (threads == 1) {
        worker(0);
    } else {
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < threads; ++i)
            pool.emplace_back(worker, i);
        for (auto& t : pool)
            t.join();
    }
    next_ = blocks;
    if (error)
        std::rethrow_exception(error);
}

GridRun LaunchRun::finish(unsigned threads)
{
    while (inBlock_) // a block begun by advance(): to its end, through any pauses its observers ask for
        advance();
    const std::uint64_t left = next_ < blocks_ && !L_.stop.load(std::memory_order_relaxed) ? blocks_ - next_ : 0;
    threads = unsigned(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, left)));
    std::vector<Output> outputs(threads + 1);
    std::vector<std::uint64_t> counts(threads + 1, 0);
    std::vector<std::unique_ptr<ProfileCollector>> profiles(threads);
    if (left)
        runWorkers(threads, outputs, counts, profiles);
    GridRun r;
    r.ms = msSince(t0_);
    if (stepper_) { // the stepped blocks' outputs join the workers'
        outputs[threads] = std::move(stepper_->printfOutput());
        counts[threads] = stepper_->instructions();
        profiles.push_back(stepperObservers_->takeProfile());
        stepper_.reset();
        stepperObservers_.reset(); // merges the stepped blocks' findings
    }
    // Device printf order between blocks is unspecified; block order keeps runs reproducible.
    Output all;
    for (auto& o : outputs)
        for (auto& e : o)
            all.push_back(std::move(e));
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.block < b.block; });
    for (auto& e : all)
        r.printf += e.text;
    r.instructions = std::accumulate(counts.begin(), counts.end(), std::uint64_t(0));
    std::erase_if(profiles, [](const auto& p) { return !p; });
    r.profiles = std::move(profiles);
    return r;
}

} // namespace kw::sim
