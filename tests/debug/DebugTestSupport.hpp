#pragma once
// A DebugSession over a kernel compiled from source in the test, and what the tests
// read of it: the instruction the focused warp runs next, the register an instruction
// stores, the whole state of the block as text (to compare two ways of reaching it).
#include "../sim/SimTestSupport.hpp"
#include "debug/DebugConsole.hpp"
#include "debug/DebugSession.hpp"
#include "sim/PtxModule.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace kwtest {

// A buffer with its element type, as a document's buffers are (the debugger reads elements).
template <class T> kw::BufferArg typed(const std::string& name, const std::vector<T>& values)
{
    const kw::DType type = std::is_same_v<T, float> ? kw::DType::F32
        : std::is_same_v<T, int>                    ? kw::DType::I32
                                                    : kw::DType::U32;
    kw::BufferArg b;
    b.name = name;
    b.data = kw::HostBuffer(type, values.size());
    std::memcpy(b.data.data(), values.data(), values.size() * sizeof(T));
    return b;
}

inline std::unique_ptr<kw::debug::DebugSession> debugSession(const std::string& source, const std::string& kernel,
                                                             std::vector<kw::BufferArg> buffers,
                                                             std::vector<kw::LaunchArg> args, kw::LaunchConfig config)
{
    auto img = compile(source, kernel);
    if (!img)
        return nullptr;
    return std::make_unique<kw::debug::DebugSession>(*img, std::move(buffers), std::move(args), config, source,
                                                     "kernel.cu");
}

// The focused warp's next instruction, as PTX.
inline std::string nextInstruction(const kw::debug::DebugSession& s) { return s.warp().where.instruction; }

// stepi until the focused warp's next instruction starts with `prefix` (at most `limit` steps).
inline bool stepUntil(kw::debug::DebugSession& s, const std::string& prefix, int limit = 2000)
{
    for (int i = 0; i < limit; ++i) {
        if (nextInstruction(s).rfind(prefix, 0) == 0)
            return true;
        if (s.ended())
            return false;
        s.resume(kw::debug::Motion::StepInstruction);
    }
    return false;
}

// "st.global.u32 [%rd4], %r7;" -> "%r7": the value a store writes.
inline std::string storedRegister(const std::string& instruction)
{
    const auto end = instruction.find_last_of(';');
    const auto comma = instruction.find_last_of(',', end);
    std::string r = instruction.substr(comma + 1, end - comma - 1);
    r.erase(0, r.find_first_not_of(' '));
    return r;
}

// The first operand: the register an instruction writes.
inline std::string writtenRegister(const std::string& instruction)
{
    const auto space = instruction.find(' ');
    const auto comma = instruction.find(',', space);
    return instruction.substr(space + 1, comma - space - 1);
}

// Everything of the focused block a debugger shows: each warp's lanes, pcs and every
// named register of every lane, and the shared memory.
inline std::string blockState(kw::debug::DebugSession& s)
{
    std::string out = fmt::format("position {} block {}\n", s.position(), s.focus().block);
    const kw::debug::Focus keep = s.focus();
    const auto& fn = s.function();
    for (std::uint32_t w = 0; w < s.warpsPerBlock(); ++w) {
        s.focusWarp(w);
        const kw::debug::WarpView v = s.warp();
        out += fmt::format("warp {} {} pc {} done {}\n", w, kw::debug::laneMap(v), v.where.pc, v.done);
        for (const auto& name : fn.regNames) {
            if (name.empty() || name[0] != '%' || name.find('.') != std::string::npos)
                continue;
            out += name + ":";
            for (const auto& lane : s.lanes(name))
                out += " " + lane.text;
            out += "\n";
        }
    }
    for (const auto& word : s.shared(kw::DType::U32, 0, s.sharedBytes() / 4)) {
        out += " " + word.text;
        if (word.lastWriter)
            out += fmt::format("@{}.{}:{}", word.lastWriter->warp, word.lastWriter->lane, word.lastWriter->where.pc);
    }
    for (const auto& b : s.buffers()) {
        out += "\n" + b.name + ":";
        for (std::size_t i = 0; i < b.data.count(); ++i)
            out += fmt::format(" {}", b.data.at(i));
    }
    s.focusWarp(keep.warp);
    s.focusLane(keep.lane);
    return out + "\n";
}

// A document file in the temporary folder (named from `stem` and the process): one
// thread calls a device function that loops `n` times, so a `next` over the call runs long.
inline std::string churnDocument(const std::string& stem, int n)
{
    const std::string path
        = (std::filesystem::temp_directory_path() / fmt::format("{}-{}.kwb", stem, static_cast<long>(::getpid())))
              .string();
    const nlohmann::json doc = {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"source",
         "__device__ __noinline__ int churn(int s, int n)\n{\n    for (int i = 0; i < n; ++i)\n"
         "        s = s * 3 + i;\n    return s;\n}\n__global__ void spin(int *out, int n)\n{\n"
         "    int s = 1;\n    s = churn(s, n); // call\n    out[0] = s; // store\n}\n"},
        {"kernel", "spin"},
        {"buffers",
         {{{"name", "out"}, {"dtype", "i32"}, {"count", "1"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}}}},
        {"args",
         {{{"name", "out"}, {"buffer", "out"}}, {{"name", "n"}, {"type", "i32"}, {"value", std::to_string(n)}}}},
        {"launch", {{"grid", {1, 1, 1}}, {"block", {1, 1, 1}}, {"shared_bytes", "0"}}},
        {"run", {{"warmup", 0}, {"repeats", 0}, {"time_limit_s", 600}}},
    };
    std::ofstream(path) << doc.dump(2);
    return path;
}

} // namespace kwtest
