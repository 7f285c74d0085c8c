// Every sample gives the same outputs on the CPU simulator as on the GPU:
// integers exactly, floats within a relative 1e-5 (plus a tiny absolute floor for
// values near zero), and printf lines equal as multisets.
#include "data/DType.hpp"
#include "gpu/GpuTestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace kwtest;
using nlohmann::json;

namespace {

struct BackendRun {
    json result;
    std::map<std::string, std::vector<char>> buffers;
};

BackendRun runOn(ChildProcess& serve, int id, json document, const std::string& device)
{
    // One launch is all parity needs; the simulator's timing repeats only cost time.
    document["run"]["warmup"] = 0;
    document["run"]["repeats"] = 1;
    BackendRun r;
    json reply = runJob(serve, id, document, device, &r.buffers);
    EXPECT_TRUE(reply["ok"].get<bool>()) << device << ": " << reply.dump(2);
    if (reply.contains("result"))
        r.result = reply["result"];
    return r;
}

std::vector<std::string> printfMultiset(const json& result)
{
    std::vector<std::string> lines;
    if (!result.contains("printf"))
        return lines;
    for (const auto& l : result["printf"]["lines"])
        lines.push_back(l["block"].dump() + l["thread"].dump() + l["text"].get<std::string>());
    for (const auto& l : result["printf"]["untagged"])
        lines.push_back(l.get<std::string>());
    std::sort(lines.begin(), lines.end());
    return lines;
}

// Returns how many elements differ beyond the tolerance and reports the first few.
std::size_t compareBuffer(const std::string& name, kw::DType dtype, const std::vector<char>& gpu,
                          const std::vector<char>& sim)
{
    const std::size_t elem = kw::sizeOf(dtype);
    const std::size_t n = gpu.size() / elem;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double g = kw::loadAsDouble(dtype, gpu.data() + i * elem);
        const double s = kw::loadAsDouble(dtype, sim.data() + i * elem);
        bool same;
        if (!kw::isFloating(dtype))
            same = g == s;
        else if (std::isnan(g) || std::isnan(s))
            same = std::isnan(g) && std::isnan(s);
        else
            same = std::fabs(g - s) <= 1e-5 * std::max(std::fabs(g), std::fabs(s)) + 1e-30;
        if (!same && bad++ < 5)
            ADD_FAILURE() << name << "[" << i << "]: gpu " << g << " sim " << s;
    }
    return bad;
}

} // namespace

TEST(GpuSimParity, EverySampleGivesTheSameOutputsOnSimAsOnTheGpu)
{
    KW_REQUIRE_GPU();
    const auto names = sampleNames();
    ASSERT_FALSE(names.empty()) << "no samples in " << KW_SAMPLES_DIR;
    ChildProcess serve({"serve"});
    int id = 1;
    std::size_t comparedInAll = 0;
    for (const auto& name : names) {
        SCOPED_TRACE(name);
        const json doc = loadSample(name);
        BackendRun gpu = runOn(serve, id++, doc, "cuda:0");
        BackendRun sim = runOn(serve, id++, doc, "sim");
        ASSERT_FALSE(gpu.result.is_null());
        ASSERT_FALSE(sim.result.is_null());
        EXPECT_TRUE(gpu.result["fault"].is_null()) << gpu.result["fault"].dump();
        EXPECT_TRUE(sim.result["fault"].is_null()) << sim.result["fault"].dump();

        std::size_t compared = 0;
        for (const auto& b : gpu.result["buffers"]) {
            if (b["direction"] == "in")
                continue;
            const std::string bname = b["name"];
            const auto dtype = kw::parseDType(b["dtype"].get<std::string>());
            ASSERT_TRUE(dtype);
            ASSERT_TRUE(gpu.buffers.count(bname) && sim.buffers.count(bname)) << bname;
            ASSERT_EQ(gpu.buffers[bname].size(), sim.buffers[bname].size()) << bname;
            EXPECT_EQ(compareBuffer(bname, *dtype, gpu.buffers[bname], sim.buffers[bname]), 0u) << bname;
            ++compared;
        }
        ASSERT_EQ(gpu.result["buffers"].size(), sim.result["buffers"].size());
        const auto gpuLines = printfMultiset(gpu.result);
        EXPECT_EQ(gpuLines, printfMultiset(sim.result));
        EXPECT_GT(compared + gpuLines.size(), 0u) << name << " compared no buffer and no printf line";
        comparedInAll += compared;
        std::printf("%-26s parity: %zu output buffer(s), %zu printf line(s)\n", name.c_str(), compared,
                    gpuLines.size());
    }
    EXPECT_GE(comparedInAll, names.size() - 1) << "every sample but hello_from_gpu has an output buffer";
    serve.closeStdin();
    EXPECT_EQ(serve.wait(), 0);
}
