// A straight loop of a document of steps runs as a CUDA graph after its first pass
// (cuda/CudaGraphPass): its outputs equal those of the same document run step by step
// (run.graph false) bit for bit, and the run says how its time was measured. Documents:
// heat_diffusion (a launch and a swap: the graph holds two passes' worth of the
// ping-pong), scan_blelloch (the grid and the stride change with the pass index), 1000
// tiny launches, and 1000 launches whose argument changes every pass between copies and
// fills of 4- and 8-byte elements (kernel nodes updated in the instantiated graph); a
// fault inside a graph names the loop and the passes of its replay.
#include "compile/Compiler.hpp"
#include "cuda/CudaBackend.hpp"
#include "doc/DocumentReader.hpp"
#include "gpu/GpuTestSupport.hpp"
#include "run/RunEngine.hpp"
#include "support/TempDir.hpp"

#include <cstring>

using namespace kwtest;
using nlohmann::json;

namespace {

struct TwoRuns {
    kw::RunResult graph, alone;
};

// The document as it is, then with run.graph off, in one process on cuda:0.
TwoRuns runBothWays(json document)
{
    kw::Compiler compiler;
    kw::cuda::CudaBackend backend(0);
    kw::RunEngine engine(compiler, backend);
    TwoRuns r;
    r.graph = engine.run(kw::DocumentReader::readString(document.dump()));
    document["run"]["graph"] = false;
    r.alone = engine.run(kw::DocumentReader::readString(document.dump()));
    return r;
}

std::string notes(const kw::RunResult& r)
{
    std::string all;
    for (const std::string& w : r.warnings)
        all += w + "\n";
    return all;
}

const kw::HostBuffer& bufferOf(const kw::RunResult& r, const std::string& name)
{
    for (const kw::BufferResult& b : r.buffers)
        if (b.name == name)
            return b.data;
    throw std::runtime_error("no buffer " + name);
}

const kw::StepResult& stepOf(const kw::RunResult& r, const std::string& path)
{
    for (const kw::StepResult& s : r.steps)
        if (s.path == path)
            return s;
    throw std::runtime_error("no step " + path);
}

// Same buffers bit for bit, same runs of every step; both runs ok.
void expectSameOutputs(const TwoRuns& r)
{
    ASSERT_TRUE(r.graph.compile.ok) << r.graph.compile.log;
    ASSERT_TRUE(r.graph.ok) << r.graph.stopped << (r.graph.fault ? r.graph.fault->message : "") << notes(r.graph);
    ASSERT_TRUE(r.alone.ok) << r.alone.stopped << (r.alone.fault ? r.alone.fault->message : "");
    ASSERT_EQ(r.graph.buffers.size(), r.alone.buffers.size());
    for (std::size_t b = 0; b < r.alone.buffers.size(); ++b) {
        const kw::HostBuffer &x = r.graph.buffers[b].data, &y = r.alone.buffers[b].data;
        ASSERT_EQ(x.byteSize(), y.byteSize());
        EXPECT_EQ(std::memcmp(x.data(), y.data(), x.byteSize()), 0) << "buffer " << r.alone.buffers[b].name;
    }
    ASSERT_EQ(r.graph.steps.size(), r.alone.steps.size());
    for (std::size_t s = 0; s < r.alone.steps.size(); ++s)
        EXPECT_EQ(r.graph.steps[s].runs, r.alone.steps[s].runs) << "step " << r.alone.steps[s].path;
    EXPECT_EQ(notes(r.alone).find("CUDA graph"), std::string::npos) << notes(r.alone);
}

json tinyDocument(const json& steps, const json& buffers)
{
    return {{"format", "kernel-workbench"},
            {"version", 2},
            {"source", R"(
extern "C" __global__ void plus_one(const int* in, int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
}
extern "C" __global__ void add(int* a, int k, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += k;
}
)"},
            {"kernels", {"plus_one", "add"}},
            {"variables", json::parse(R"([["n", 96]])")},
            {"buffers", buffers},
            {"steps", steps}};
}

} // namespace

TEST(GpuGraph, HeatDiffusionAsAGraphEqualsItsStepByStepRun)
{
    KW_REQUIRE_GPU();
    const TwoRuns r = runBothWays(loadSample("heat_diffusion.kwb"));
    expectSameOutputs(r);
    const std::string said = notes(r.graph);
    EXPECT_NE(said.find("step 1 (time steps): passes 2 to 200 ran as one CUDA graph"), std::string::npos) << said;
    EXPECT_NE(said.find("measured over each replay, not per launch"), std::string::npos) << said;
    // The launch's own times are its first pass's; step by step it has all 200.
    EXPECT_EQ(stepOf(r.graph, "1.1").kernelMs.size(), 1u);
    EXPECT_EQ(stepOf(r.alone, "1.1").kernelMs.size(), 200u);
    EXPECT_EQ(stepOf(r.graph, "1.1").runs, 200);
    EXPECT_GT(stepOf(r.graph, "1").totalMs, stepOf(r.graph, "1.1").totalMs) << "the replays' time counts";
}

TEST(GpuGraph, ScanBlellochWhoseGridChangesEveryPassEqualsItsStepByStepRun)
{
    KW_REQUIRE_GPU();
    const TwoRuns r = runBothWays(loadSample("scan_blelloch.kwb"));
    expectSameOutputs(r);
    const std::string said = notes(r.graph);
    EXPECT_NE(said.find("step 1 (up-sweep): passes 2 to 12 ran as one CUDA graph"), std::string::npos) << said;
    EXPECT_NE(said.find("step 3 (down-sweep): passes 2 to 12 ran as one CUDA graph"), std::string::npos) << said;
    EXPECT_NE(said.find("change from pass to pass (1 recordings, 0 updates"), std::string::npos) << said;
    const kw::HostBuffer& data = bufferOf(r.graph, "data");
    ASSERT_EQ(data.count(), 4096u);
    for (std::size_t i = 0; i < data.count(); ++i) {
        const std::size_t m = i % 4; // 0, 0+1, 0+1+2 ... before element i of its cycle
        ASSERT_EQ(data.at(i), double(i / 4 * 6 + m * (m == 0 ? 0 : m - 1) / 2)) << "data[" << i << "]";
    }
}

TEST(GpuGraph, AThousandTinyLaunchesAsAGraphEqualTheirStepByStepRun)
{
    KW_REQUIRE_GPU();
    const TwoRuns r = runBothWays(
        tinyDocument(json::parse(R"([{"repeat": 1000, "name": "tiny", "steps": [
            {"launch": "plus_one", "grid": 3, "block": 32, "args": [{"buffer": "u"}, {"buffer": "v"}, {"type": "i32", "value": "n"}]},
            {"swap": ["u", "v"]}]}])"),
                     json::parse(R"([{"name": "u", "dtype": "i32", "count": "n", "init": {"kind": "arange"}},
                        {"name": "v", "dtype": "i32", "count": "n", "init": "zeros"}])")));
    expectSameOutputs(r);
    EXPECT_NE(notes(r.graph).find("passes 2 to 1000 ran as one CUDA graph"), std::string::npos) << notes(r.graph);
    const kw::HostBuffer& u = bufferOf(r.graph, "u");
    for (std::size_t i = 0; i < u.count(); ++i)
        ASSERT_EQ(u.at(i), double(i + 1000)) << "u[" << i << "]";
}

TEST(GpuGraph, LaunchesWhoseArgumentChangesEveryPassAmongCopiesAndFillsEqualTheirStepByStepRun)
{
    KW_REQUIRE_GPU();
    // 999 passes after the first, 128 operations a recording (32 passes of 4): the kernel
    // nodes of one recording take each chunk's arguments, the last, shorter chunk is recorded anew.
    const TwoRuns r = runBothWays(
        tinyDocument(json::parse(R"([{"repeat": 1000, "index": "t", "name": "mixed", "steps": [
            {"launch": "add", "grid": 3, "block": 32, "args": [{"buffer": "a"}, {"type": "i32", "value": "t % 3"}, {"type": "i32", "value": "n"}]},
            {"copy": "a", "to": "b", "count": 10, "from_offset": 3, "to_offset": 1},
            {"fill": "wide", "value": 1234567890123, "offset": 1, "count": 5},
            {"fill": "b", "value": -7, "offset": 50, "count": 3}]}])"),
                     json::parse(R"([{"name": "a", "dtype": "i32", "count": "n", "init": {"kind": "arange"}},
                        {"name": "b", "dtype": "i32", "count": "n", "init": "zeros"},
                        {"name": "wide", "dtype": "i64", "count": 8, "init": "zeros"}])")));
    expectSameOutputs(r);
    const std::string said = notes(r.graph);
    EXPECT_NE(said.find("passes 2 to 1000 ran as one CUDA graph of 128 operations"), std::string::npos) << said;
    EXPECT_NE(said.find("(2 recordings, 30 updates of their kernel nodes)"), std::string::npos) << said;
    long long added = 0;
    for (int t = 0; t < 1000; ++t)
        added += t % 3;
    EXPECT_EQ(bufferOf(r.graph, "a").at(5), double(5 + added));
    EXPECT_EQ(bufferOf(r.graph, "b").at(1), double(3 + added));
    EXPECT_EQ(bufferOf(r.graph, "b").at(51), -7.0);
    EXPECT_EQ(bufferOf(r.graph, "wide").at(5), 1234567890123.0);
    EXPECT_EQ(bufferOf(r.graph, "wide").at(6), 0.0);
}

TEST(GpuGraph, AFaultInsideTheGraphNamesTheLoopAndThePassesOfItsReplay)
{
    KW_REQUIRE_GPU();
    // Pass 0 (step by step) writes inside the buffer; from pass 1 on, inside the graph,
    // the index goes 2^36 elements past it. A child process: the fault poisons its context.
    json doc = tinyDocument(json::parse(R"([{"repeat": 6, "index": "t", "name": "far", "steps": [
            {"launch": "add", "grid": 1, "block": 32, "args": [{"buffer": "a"}, {"type": "i32", "value": 1}, {"type": "i32", "value": "n"}]},
            {"launch": "far", "grid": 1, "block": 32, "args": [{"buffer": "a"}, {"type": "i64", "value": "t << 36"}]}]}])"),
                            json::parse(R"([{"name": "a", "dtype": "i32", "count": "n", "init": "zeros"}])"));
    doc["source"] = doc["source"].get<std::string>()
        + "extern \"C\" __global__ void far(int* a, long long k) { a[threadIdx.x + k] = 1; }\n";
    doc["kernels"].push_back("far");
    const auto path = kw::test::freshDir("kw_gpu_graph", "fault") / "fault.kwb";
    std::ofstream(path) << doc.dump();
    const auto r = runKwb({"run", path.string(), "--device", "cuda:0", "--json"});
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    const json result = json::parse(r.out);
    ASSERT_FALSE(result["fault"].is_null()) << r.out;
    const std::string message = result["fault"]["message"].get<std::string>();
    EXPECT_EQ(message.rfind("step 1 (far, one of passes 2 to 6, replayed as a whole): kernel add or far faulted", 0),
              0u)
        << message;
    EXPECT_EQ(result["fault_step"], "1") << r.out;
}
