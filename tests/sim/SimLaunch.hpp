#pragma once
// Buffers, arguments and launch settings for SimBackend::launch, shared by the
// simulator's tests and its benchmark.
#include "launch/LaunchTypes.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace kwtest {

template <class T> kw::BufferArg buffer(const std::string& name, const std::vector<T>& values)
{
    kw::BufferArg b;
    b.name = name;
    b.data.bytes().resize(values.size() * sizeof(T));
    std::memcpy(b.data.bytes().data(), values.data(), values.size() * sizeof(T));
    return b;
}

template <class T> std::vector<T> values(const kw::BufferArg& b)
{
    std::vector<T> v(b.data.bytes().size() / sizeof(T));
    std::memcpy(v.data(), b.data.bytes().data(), v.size() * sizeof(T));
    return v;
}

inline kw::LaunchArg bufArg(std::size_t index)
{
    kw::LaunchArg a;
    a.isBuffer = true;
    a.buffer = index;
    return a;
}

template <class T> kw::LaunchArg scalar(T v)
{
    kw::LaunchArg a;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
}

// A failed launch's fault message for an assertion, also when it has no fault.
inline std::string faultMessage(const std::optional<kw::Fault>& fault)
{
    return fault ? fault->message : std::string("the launch failed without a fault");
}

// One untimed launch (no warm-up, no repeats) with a time limit for runaway kernels.
inline kw::LaunchConfig config(kw::Dim3 grid, kw::Dim3 block, std::uint32_t shared = 0, double timeLimit = 20)
{
    kw::LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.sharedBytes = shared;
    c.warmup = 0;
    c.repeats = 0;
    c.timeLimitSeconds = timeLimit;
    return c;
}

// config() under the simulator's racecheck.
inline kw::LaunchConfig racechecked(kw::Dim3 grid, kw::Dim3 block)
{
    kw::LaunchConfig c = config(grid, block);
    c.check = kw::CheckTool::Racecheck;
    return c;
}

} // namespace kwtest
