// The runner reuses prepared inputs when only the source changed, and builds
// them again when anything they are made from changes.
#include "doc/DocumentReader.hpp"
#include "run/PreparedRunCache.hpp"

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
