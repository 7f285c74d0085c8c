// The runner reuses prepared inputs when only the source changed, and builds
// them again when anything they are made from changes.
#include "doc/DocumentReader.hpp"
#include "doc/DocumentValidator.hpp"
#include "run/PreparedRunCache.hpp"

#include <memory>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

kw::Document document(const std::string& source, const std::string& n, int seed)
{
    return kw::DocumentReader::readString(R"({
      "format": "kernel-workbench", "version": 1,
      "source": ")" + source + R"(",
      "kernel": "k",
      "variables": [["n", ")" + n + R"("]],
      "buffers": [{"name": "a", "dtype": "f32", "count": "n", "init": {"kind": "uniform", "seed": )"
                                          + std::to_string(seed) + R"(}, "direction": "inout"}],
      "args": [{"name": "a", "buffer": "a"}, {"name": "n", "type": "i32", "value": "n"}],
      "launch": {"grid": [1], "block": [32]}
    })");
}

const char* kSourceA = "__global__ void k(float* a, int n) { a[threadIdx.x] += 1; }";
const char* kSourceB = "__global__ void k(float* a, int n) { a[threadIdx.x] += 2; }";

} // namespace

TEST(PreparedRunCache, ReusesInputsWhenOnlyTheSourceChanged)
{
    kw::PreparedRunCache cache;
    kw::PreparedRun first = cache.prepare(document(kSourceA, "64", 1));
    EXPECT_FALSE(cache.lastWasHit());
    first.buffers[0].data.set(0, 1234.0); // a launch writes into its copy
    kw::PreparedRun second = cache.prepare(document(kSourceB, "64", 1));
    EXPECT_TRUE(cache.lastWasHit());
    ASSERT_EQ(second.buffers[0].data.count(), 64u);
    EXPECT_NE(second.buffers[0].data.at(0), 1234.0) << "the cached inputs must not share the launch's data";
    EXPECT_EQ(second.buffers[0].data.bytes(),
              kw::PreparedRun::fromDocument(document(kSourceA, "64", 1)).buffers[0].data.bytes());
}

TEST(PreparedRunCache, PreparesAgainWhenTheDataChanges)
{
    kw::PreparedRunCache cache;
    cache.prepare(document(kSourceA, "64", 1));
    kw::PreparedRun bigger = cache.prepare(document(kSourceA, "128", 1));
    EXPECT_FALSE(cache.lastWasHit());
    EXPECT_EQ(bigger.buffers[0].data.count(), 128u);
    cache.prepare(document(kSourceA, "128", 2));
    EXPECT_FALSE(cache.lastWasHit());
}

TEST(PreparedRunCache, KeepsNothingOverItsSizeLimit)
{
    kw::PreparedRunCache cache(16);
    cache.prepare(document(kSourceA, "64", 1));
    cache.prepare(document(kSourceA, "64", 1));
    EXPECT_FALSE(cache.lastWasHit());
}

TEST(PreparedRunCache, AJobsAttachedDataIsPreparedFromItEachTimeAndNeverKept)
{
    // A remote job's file came with it: each run starts from those bytes, untouched by the last run.
    auto attached = std::make_shared<kw::AttachedFiles>();
    kw::NdArray data;
    data.data = kw::HostBuffer(kw::DType::F32, 64);
    for (std::size_t i = 0; i < 64; ++i)
        data.data.set(i, double(i) * 0.25 - 3);
    data.shape = {64};
    (*attached)["a.raw"] = data;
    auto remote = [&](const std::string& source, const std::string& more = "") {
        // Parsed, then attached and validated, as the runner decodes a job.
        kw::Document doc = kw::DocumentReader::parse(R"({
          "format": "kernel-workbench", "version": 1,
          "source": ")" + source + R"(",
          "kernel": "k",
          "buffers": [{"name": "a", "dtype": "f32", "count": "64", "init": {"kind": "file", "path": "a.raw"}, "direction": "inout"})"
                                                     + more + R"(],
          "args": [{"name": "a", "buffer": "a"}, {"name": "n", "type": "i32", "value": "64"}],
          "launch": {"grid": [1], "block": [32]}
        })");
        doc.attachedFiles = attached;
        kw::DocumentValidator::validate(doc);
        return doc;
    };
    kw::PreparedRunCache cache;
    kw::PreparedRun first = cache.prepare(remote(kSourceA));
    EXPECT_FALSE(cache.lastWasHit());
    ASSERT_EQ(first.buffers[0].data.bytes(), data.data.bytes());
    first.buffers[0].data.set(0, 1234.0); // a launch writes into its buffer
    kw::PreparedRun second = cache.prepare(remote(kSourceB));
    EXPECT_FALSE(cache.lastWasHit()) << "the data arrives with every job: nothing to reuse";
    EXPECT_EQ(second.buffers[0].data.bytes(), data.data.bytes()) << "byte for byte the attached data";
    EXPECT_EQ(attached->at("a.raw").data.bytes(), data.data.bytes()) << "the attachment is never written";

    // Beside a generated buffer the run is kept, and new attached data is prepared again.
    const std::string random
        = R"(, {"name": "r", "dtype": "f32", "count": "64", "init": {"kind": "uniform", "seed": 3}, "direction": "in"})";
    cache.prepare(remote(kSourceA, random));
    EXPECT_FALSE(cache.lastWasHit());
    kw::PreparedRun kept = cache.prepare(remote(kSourceB, random));
    EXPECT_TRUE(cache.lastWasHit()) << "the random buffer is reused";
    EXPECT_EQ(kept.buffers[0].data.bytes(), data.data.bytes());
    (*attached)["a.raw"].data.set(5, 99.0);
    kw::PreparedRun changed = cache.prepare(remote(kSourceB, random));
    EXPECT_FALSE(cache.lastWasHit()) << "other attached bytes, another key";
    EXPECT_EQ(changed.buffers[0].data.at(5), 99.0);
}
