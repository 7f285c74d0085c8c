// How fast a LinePlot's decimation is for 10^7 f32 values: the one-time block summary
// and a decimation of the whole range to 1920 columns. Each decimation is checked
// against the single-pass reference (the same points) before its time counts.
// Usage: bench_decimator     exit 0 when both targets are met, 1 when one is missed,
//                            2 when the output is wrong.
#include "data/HostBuffer.hpp"
#include "views/MinMaxDecimator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

using namespace kw;
using Clock = std::chrono::steady_clock;

namespace {
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
} // namespace

int main()
{
    const std::size_t n = 10'000'000;
    auto data = std::make_shared<HostBuffer>(DType::F32, n);
    std::mt19937 rng(7);
    std::normal_distribution<float> noise(0.f, 0.3f);
    auto* p = reinterpret_cast<float*>(data->data());
    for (std::size_t i = 0; i < n; ++i)
        p[i] = std::sin(float(i) * 1e-4f) + noise(rng);

    const auto reference = MinMaxDecimator::decimate(*data, 0, double(n - 1), 1920);
    auto t0 = Clock::now();
    const MinMaxDecimator d(data);
    const double buildMs = msSince(t0);
    double worst = 0, best = 1e300;
    for (int rep = 0; rep < 5; ++rep) {
        t0 = Clock::now();
        const auto out = d.decimate(0, double(n - 1), 1920);
        const double ms = msSince(t0);
        if (out.x != reference.x || out.y != reference.y || out.x.size() > 3840 || out.x.empty()) {
            std::printf("decimation of 10^7 values: WRONG (%zu points, reference %zu)\n", out.x.size(),
                        reference.x.size());
            return 2;
        }
        best = std::min(best, ms);
        worst = std::max(worst, ms);
    }
    int status = 0;
    auto row = [&](const char* what, double ms, double target) {
        const bool met = ms <= target;
        std::printf("%-48s %9.2f ms   target <= %6.1f ms   %s\n", what, ms, target, met ? "met" : "MISSED");
        if (!met)
            status = 1;
    };
    row("block summary of 10^7 f32 (once per buffer)", buildMs, 500);
    row("decimate 10^7 to 1920 columns, worst of 5", worst, 50);
    std::printf("%-48s %9.2f ms\n", "decimate 10^7 to 1920 columns, best of 5", best);
    return status;
}
