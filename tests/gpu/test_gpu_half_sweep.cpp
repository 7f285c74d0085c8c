// The device API of cuda_fp16.h and cuda_bf16.h (tests/data/docs/halfsweep) on the
// simulator and on the GPU, for sm_90, sm_80 and compute_75 (each arch makes NVRTC
// emit other PTX forms): every output bit must be equal, except the math functions,
// which the GPU approximates, and which must be within one unit in the last place.
#include "gpu/GpuTestSupport.hpp"

#include "data/NpyFile.hpp"
#include "support/TempDir.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <regex>

using namespace kwtest;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kSweepDir = fs::path(KW_TEST_DATA_DIR) / "docs" / "halfsweep";

// The sweep folder copied with every document asking for `arch`.
fs::path sweepFor(const std::string& arch)
{
    const fs::path dir = kw::test::freshDir("kw_gpu_half_sweep", arch);
    for (const auto& e : fs::directory_iterator(kSweepDir)) {
        if (e.path().extension() != ".kwb") {
            fs::copy_file(e.path(), dir / e.path().filename());
            continue;
        }
        std::ifstream in(e.path());
        json doc = json::parse(in);
        doc["options"]["arch"] = arch;
        std::ofstream(dir / e.path().filename()) << doc.dump(2);
    }
    return dir;
}

std::vector<std::uint32_t> elements(const fs::path& npy, int& bytesPer)
{
    const kw::NdArray a = kw::NpyFile::read(npy);
    bytesPer = static_cast<int>(kw::sizeOf(a.data.dtype()));
    std::vector<std::uint32_t> v(a.data.byteSize() / bytesPer);
    for (std::size_t i = 0; i < v.size(); ++i)
        std::memcpy(&v[i], a.data.data() + i * bytesPer, bytesPer);
    return v;
}

bool isNan16(std::uint32_t b, bool bf16)
{
    return bf16 ? (b & 0x7f80) == 0x7f80 && (b & 0x7f) : (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
}

// Within one unit in the last place: the same sign and neighbouring patterns, or both NaN.
bool withinOneUlp(std::uint32_t a, std::uint32_t b, bool bf16)
{
    if (isNan16(a, bf16) || isNan16(b, bf16))
        return isNan16(a, bf16) && isNan16(b, bf16);
    const int ia = (a & 0x8000) ? -static_cast<int>(a & 0x7fff) : static_cast<int>(a);
    const int ib = (b & 0x8000) ? -static_cast<int>(b & 0x7fff) : static_cast<int>(b);
    return std::abs(ia - ib) <= 1;
}

// math_fns writes 16 results per input: half in 0-7, bf16 in 8-15; floor, trunc, ceil and
// rint (7, 13, 14, 15) are exact on the GPU, the rest are its approximations.
bool mathResultsAgree(std::size_t index, std::uint32_t sim, std::uint32_t gpu)
{
    const int column = static_cast<int>(index % 16);
    if (column == 7 || column == 13 || column == 14 || column == 15)
        return sim == gpu;
    return withinOneUlp(sim, gpu, column >= 8);
}

struct Outcome {
    std::size_t compared = 0, differing = 0;
    std::vector<std::string> firstDifferences;
};

void compareBuffer(const std::string& kernel, const fs::path& simNpy, const fs::path& gpuNpy, Outcome& o)
{
    int simBytes = 0, gpuBytes = 0;
    const auto sim = elements(simNpy, simBytes), gpu = elements(gpuNpy, gpuBytes);
    ASSERT_EQ(sim.size(), gpu.size());
    ASSERT_EQ(simBytes, gpuBytes);
    for (std::size_t i = 0; i < sim.size(); ++i) {
        ++o.compared;
        const bool same = kernel == "math_fns" ? mathResultsAgree(i, sim[i], gpu[i]) : sim[i] == gpu[i];
        if (same)
            continue;
        ++o.differing;
        if (o.firstDifferences.size() < 12) {
            char line[160];
            std::snprintf(line, sizeof line, "%s[%zu]: sim 0x%0*x, GPU 0x%0*x", simNpy.stem().c_str(), i, simBytes * 2,
                          sim[i], simBytes * 2, gpu[i]);
            o.firstDifferences.push_back(line);
        }
    }
}

} // namespace

TEST(GpuHalfSweep, EveryHalfAndBf16ResultOfTheSimulatorEqualsTheGpusBitForBit)
{
    KW_REQUIRE_GPU();
    std::size_t total = 0;
    for (const std::string arch : {"sm_90", "sm_80", "compute_75"}) {
        const fs::path dir = sweepFor(arch);
        std::vector<fs::path> docs;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".kwb")
                docs.push_back(e.path());
        std::sort(docs.begin(), docs.end());
        ASSERT_GE(docs.size(), 10u);
        for (const auto& doc : docs) {
            const std::string kernel = doc.stem().string();
            SCOPED_TRACE(arch + " " + kernel);
            const fs::path simOut = dir / ("sim_" + kernel), gpuOut = dir / ("gpu_" + kernel);
            auto sim = runKwb({"run", doc.string(), "--device", "sim", "--repeat", "0", "--out", simOut.string()});
            EXPECT_EQ(sim.exitCode, 0) << sim.out << sim.err;
            auto gpu = runKwb({"run", doc.string(), "--device", "cuda:0", "--repeat", "0", "--out", gpuOut.string()});
            EXPECT_EQ(gpu.exitCode, 0) << gpu.out << gpu.err;
            if (!fs::exists(simOut) || !fs::exists(gpuOut))
                continue; // a failed check still writes the outputs; a refusal does not
            Outcome o;
            for (const auto& e : fs::directory_iterator(gpuOut))
                if (e.path().extension() == ".npy")
                    compareBuffer(kernel, simOut / e.path().filename(), e.path(), o);
            EXPECT_GT(o.compared, 0u);
            total += o.compared;
            std::string first;
            for (const auto& d : o.firstDifferences)
                first += "\n  " + d;
            std::cout << arch << " " << kernel << ": " << o.differing << " of " << o.compared << " differ" << first
                      << "\n";
            EXPECT_EQ(o.differing, 0u) << first;
        }
    }
    EXPECT_GT(total, 3u * 100000u);
}
