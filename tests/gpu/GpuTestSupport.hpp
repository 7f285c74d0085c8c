#pragma once
// Shared by the GPU tests: skipping without a device, samples, serve run jobs.
#include "cuda/CudaDevices.hpp"
#include "cuda/DriverApi.hpp"
#include "gpu/ChildProcess.hpp"
#include "serve/Protocol.hpp"
#include "support/Samples.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kwtest {

inline std::string noGpuReason()
{
    if (!kw::cuda::DriverApi::available())
        return "no CUDA device: " + kw::cuda::DriverApi::unavailableReason();
    if (kw::cuda::CudaDevices::count() == 0)
        return "no CUDA device: the driver reports none";
    return {};
}

#define KW_REQUIRE_GPU()                                                                                               \
    do {                                                                                                               \
        const std::string why = ::kwtest::noGpuReason();                                                               \
        if (!why.empty())                                                                                              \
            GTEST_SKIP() << why;                                                                                       \
    } while (0)

inline nlohmann::json loadSample(const std::string& fileName) { return kw::test::sampleDocument(fileName); }

// Every sample's file name ("add_vectors.kwb"), sorted.
inline std::vector<std::string> sampleNames()
{
    std::vector<std::string> names;
    for (const auto& stem : kw::test::sampleStems())
        names.push_back(stem + ".kwb");
    return names;
}

// Sends a run request and returns the final reply; `buffers` collects binary frames by name.
inline nlohmann::json runJob(ChildProcess& serve, int id, const nlohmann::json& document,
                             const std::string& device = "cuda:0",
                             std::map<std::string, std::vector<char>>* buffers = nullptr)
{
    serve.send(kw::protocol::request(id, kw::protocol::op::kRun,
                                     {{"document", document},
                                      {"base_dir", KW_SAMPLES_DIR},
                                      {"device", device},
                                      {"return_buffers", buffers ? "all" : "none"}}));
    for (;;) {
        auto m = serve.receive(std::chrono::seconds(180));
        if (!m)
            throw std::runtime_error("serve gave no reply to request " + std::to_string(id)
                                     + "; stderr: " + serve.readStderr());
        if (m->contains("binary")) {
            auto bytes = serve.readBytes((*m)["binary"].get<std::size_t>());
            if (buffers)
                (*buffers)[(*m)["name"].get<std::string>()] = std::move(bytes);
        }
        if (m->value("id", -1) == id && !m->contains("event"))
            return *m;
    }
}

// A minimal inline document around `source` with one i32 buffer `p` of `n` elements.
inline nlohmann::json kernelDocument(const std::string& source, const std::string& kernel,
                                     nlohmann::json block = {32, 1, 1}, double timeLimit = 10)
{
    return {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"source", source},
        {"kernel", kernel},
        {"variables", nlohmann::json::parse(R"([["n", "64"]])")},
        {"buffers",
         {{{"name", "p"}, {"dtype", "i32"}, {"count", "n"}, {"init", {{"kind", "zeros"}}}, {"direction", "inout"}}}},
        {"args", {{{"name", "p"}, {"buffer", "p"}}, {{"name", "n"}, {"type", "i32"}, {"value", "n"}}}},
        {"launch", {{"grid", {1, 1, 1}}, {"block", block}}},
        {"run", {{"warmup", 0}, {"repeats", 1}, {"time_limit_s", timeLimit}}}};
}

} // namespace kwtest
