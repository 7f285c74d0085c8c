#pragma once
// Documents for the remote tests, written into a client-side folder: one that
// needs its own headers and three kinds of initialiser files, and one that
// keeps the runner busy long enough to be interrupted.
#include "data/CsvFile.hpp"
#include "data/HostBuffer.hpp"
#include "data/NpyFile.hpp"
#include "doc/Document.hpp"
#include "doc/DocumentReader.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace kwtest {

// Two headers (one beside the document, one in its include folder), a raw u8 file,
// an f32 .npy and an f64 .csv. The kernel copies the bytes, scales the floats by a
// constant from a header and copies the doubles; return_buffers "all" brings the
// inputs back too, so both can be compared with the files byte for byte.
inline kw::Document writeRoundTripDocument(const std::filesystem::path& dir, std::size_t n = 8192)
{
    namespace fs = std::filesystem;
    fs::create_directories(dir / "include");
    std::ofstream(dir / "scale.cuh") << "#pragma once\n#define KW_SCALE 2.0f\n";
    std::ofstream(dir / "include" / "copy.cuh")
        << "#pragma once\n__device__ inline unsigned char copy_byte(unsigned char v) { return v; }\n";

    kw::HostBuffer bytes(kw::DType::U8, n), floats(kw::DType::F32, n), doubles(kw::DType::F64, n);
    std::uint32_t x = 12345;
    for (std::size_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        bytes.data()[i] = std::byte(x >> 24);
        const float f = float(std::int32_t(x)) / 65536.0f;
        std::memcpy(floats.data() + 4 * i, &f, 4);
        const double d = double(i) * 0.125 - 300.5;
        std::memcpy(doubles.data() + 8 * i, &d, 8);
    }
    std::ofstream(dir / "bytes.raw", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(n));
    kw::NpyFile::write(dir / "floats.npy", floats);
    kw::CsvFile::write(dir / "doubles.csv", doubles);

    const std::string count = std::to_string(n);
    nlohmann::json doc
        = {{"format", "kernel-workbench"},
           {"version", 1},
           {"title", "remote round trip"},
           {"source",
            "#include \"scale.cuh\"\n#include \"copy.cuh\"\n"
            "__global__ void roundtrip(const unsigned char* a, unsigned char* ao, const float* b,\n"
            "                          float* bo, const double* c, double* co, int n)\n"
            "{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) { ao[i] = copy_byte(a[i]); bo[i] = b[i] * KW_SCALE; co[i] = c[i]; }\n"
            "}\n"},
           {"kernel", "roundtrip"},
           {"options", {{"include_dirs", {"include"}}}},
           {"variables", nlohmann::json::array({nlohmann::json::array({"n", count})})},
           {"buffers",
            {{{"name", "a"},
              {"dtype", "u8"},
              {"count", "n"},
              {"init", {{"kind", "file"}, {"path", "bytes.raw"}}},
              {"direction", "in"}},
             {{"name", "ao"}, {"dtype", "u8"}, {"count", "n"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}},
             {{"name", "b"},
              {"dtype", "f32"},
              {"count", "n"},
              {"init", {{"kind", "file"}, {"path", "floats.npy"}}},
              {"direction", "in"}},
             {{"name", "bo"}, {"dtype", "f32"}, {"count", "n"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}},
             {{"name", "c"},
              {"dtype", "f64"},
              {"count", "n"},
              {"init", {{"kind", "file"}, {"path", "doubles.csv"}}},
              {"direction", "in"}},
             {{"name", "co"}, {"dtype", "f64"}, {"count", "n"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}}}},
           {"args",
            {{{"name", "a"}, {"buffer", "a"}},
             {{"name", "ao"}, {"buffer", "ao"}},
             {{"name", "b"}, {"buffer", "b"}},
             {{"name", "bo"}, {"buffer", "bo"}},
             {{"name", "c"}, {"buffer", "c"}},
             {{"name", "co"}, {"buffer", "co"}},
             {{"name", "n"}, {"type", "i32"}, {"value", "n"}}}},
           {"launch", {{"grid", {"cdiv(n, 256)", 1, 1}}, {"block", {256, 1, 1}}}},
           {"run", {{"warmup", 0}, {"repeats", 1}}},
           {"checks", {{{"buffer", "bo"}, {"expect", "2 * b"}, {"abs_tol", 0}, {"rel_tol", 0}}}}};
    std::ofstream(dir / "roundtrip.kwb") << doc.dump(2);
    return kw::DocumentReader::readFile(dir / "roundtrip.kwb");
}

// A kernel that loops for `iterations` on one warp: seconds on the simulator.
inline kw::Document writeSlowDocument(const std::filesystem::path& dir, long iterations = 200000000)
{
    std::filesystem::create_directories(dir);
    nlohmann::json doc = {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"title", "slow"},
        {"source",
         "__global__ void spin(float* out, int iters)\n"
         "{\n"
         "    float acc = 0.0f;\n"
         "    for (int k = 0; k < iters; ++k) acc = acc * 0.5f + 1.0f;\n"
         "    out[threadIdx.x] = acc;\n"
         "}\n"},
        {"kernel", "spin"},
        {"variables", nlohmann::json::array({nlohmann::json::array({"iters", std::to_string(iterations)})})},
        {"buffers",
         {{{"name", "out"}, {"dtype", "f32"}, {"count", "32"}, {"init", {{"kind", "zeros"}}}, {"direction", "out"}}}},
        {"args", {{{"name", "out"}, {"buffer", "out"}}, {{"name", "iters"}, {"type", "i32"}, {"value", "iters"}}}},
        {"launch", {{"grid", {1, 1, 1}}, {"block", {32, 1, 1}}}},
        {"run", {{"warmup", 0}, {"repeats", 0}, {"time_limit_s", 60}}}};
    std::ofstream(dir / "slow.kwb") << doc.dump(2);
    return kw::DocumentReader::readFile(dir / "slow.kwb");
}

} // namespace kwtest
