#include "compile/Compiler.hpp"
#include "compile/NvrtcLibrary.hpp"
#include "compile/ProgramCache.hpp"

#include "support/ScopedEnvironment.hpp"
#include "support/TempDir.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

using namespace kw;
namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string& name) { return test::freshDir("kw_test_cache", name); }

std::vector<fs::path> entryFiles(const fs::path& dir)
{
    std::vector<fs::path> out;
    if (fs::exists(dir))
        for (const auto& e : fs::directory_iterator(dir))
            out.push_back(e.path());
    return out;
}

CompileResult sample()
{
    CompileResult r;
    r.ok = true;
    r.log = "k.cu(1): warning #177-D: x\n";
    r.diagnostics.push_back({"k.cu", 1, 5, Severity::Warning, "x", {"note a", "note b"}, "177-D"});
    r.ptx = ".version 9.0\n.entry k()\n{ ret; }\n";
    r.cubin = {'\x7f', 'E', 'L', 'F', '\0', '\xff'};
    r.arch = "sm_90";
    r.loweredNames = {{"k", "_Z1kv"}, {"scale<float,128>", "_Z5scaleIfLi128EEvPT_S0_"}};
    KernelSignature k;
    k.name = "k";
    k.templateParams = {"typename T"};
    k.line = 3;
    k.params.push_back({"a", "const float *", "float", true, true, true, 1});
    r.kernels.push_back(k);
    r.entries.push_back({"_Z1kv", {{8, 8, true}, {16, 4, false}}});
    r.includedFiles = {"/x/h.h"};
    r.compileMs = 12.5;
    return r;
}

void expectSame(const CompileResult& a, const CompileResult& b)
{
    EXPECT_EQ(a.ok, b.ok);
    EXPECT_EQ(a.log, b.log);
    ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
        EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
        EXPECT_EQ(a.diagnostics[i].column, b.diagnostics[i].column);
        EXPECT_EQ(a.diagnostics[i].notes, b.diagnostics[i].notes);
        EXPECT_EQ(a.diagnostics[i].code, b.diagnostics[i].code);
        EXPECT_EQ(a.diagnostics[i].severity, b.diagnostics[i].severity);
    }
    EXPECT_EQ(a.ptx, b.ptx);
    EXPECT_EQ(a.cubin, b.cubin);
    EXPECT_EQ(a.arch, b.arch);
    EXPECT_EQ(a.loweredNames, b.loweredNames);
    ASSERT_EQ(a.kernels.size(), b.kernels.size());
    for (std::size_t i = 0; i < a.kernels.size(); ++i) {
        EXPECT_EQ(a.kernels[i].name, b.kernels[i].name);
        EXPECT_EQ(a.kernels[i].templateParams, b.kernels[i].templateParams);
        ASSERT_EQ(a.kernels[i].params.size(), b.kernels[i].params.size());
        for (std::size_t j = 0; j < a.kernels[i].params.size(); ++j) {
            EXPECT_EQ(a.kernels[i].params[j].type, b.kernels[i].params[j].type);
            EXPECT_EQ(a.kernels[i].params[j].isRestrict, b.kernels[i].params[j].isRestrict);
            EXPECT_EQ(a.kernels[i].params[j].pointerDepth, b.kernels[i].params[j].pointerDepth);
        }
    }
    ASSERT_EQ(a.entries.size(), b.entries.size());
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        EXPECT_EQ(a.entries[i].name, b.entries[i].name);
        ASSERT_EQ(a.entries[i].params.size(), b.entries[i].params.size());
        for (std::size_t j = 0; j < a.entries[i].params.size(); ++j) {
            EXPECT_EQ(a.entries[i].params[j].size, b.entries[i].params[j].size);
            EXPECT_EQ(a.entries[i].params[j].align, b.entries[i].params[j].align);
        }
    }
    EXPECT_EQ(a.includedFiles, b.includedFiles);
}

const char* kKernel = "#include \"header.h\"\n"
                      "__global__ void add(float* a, const float* b, int n)\n"
                      "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += b[i] * SCALE; }\n";

CompileRequest request(const fs::path& dir)
{
    CompileRequest req;
    req.source = kKernel;
    req.baseDir = dir;
    return req;
}

} // namespace

TEST(ProgramCache, StoreAndFindRoundTripsEveryField)
{
    fs::path dir = freshDir("roundtrip");
    auto r = sample();
    {
        ProgramCache cache(dir);
        EXPECT_FALSE(cache.find("key one"));
        cache.store("key one", r);
        auto hit = cache.find("key one");
        ASSERT_TRUE(hit);
        expectSame(*hit, r);
    }
    ProgramCache fresh(dir);
    auto fromDisk = fresh.find("key one");
    ASSERT_TRUE(fromDisk);
    expectSame(*fromDisk, r);
    EXPECT_FALSE(fresh.find("key two"));
    for (const auto& f : entryFiles(dir))
        EXPECT_EQ(f.extension(), ".kwbprog") << "no temporary file left behind: " << f;
}

TEST(ProgramCache, ForeignCorruptAndTruncatedEntriesAreNeverLoaded)
{
    fs::path dir = freshDir("corrupt");
    ProgramCache writer(dir);
    writer.store("the key", sample());
    fs::path entry = writer.entryPath("the key");
    ASSERT_TRUE(fs::exists(entry));
    std::string good;
    {
        std::ifstream in(entry, std::ios::binary);
        good.assign(std::istreambuf_iterator<char>(in), {});
    }

    auto writeEntry
        = [&](const std::string& bytes) { std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes; };
    auto loads = [&] { return ProgramCache(dir).find("the key").has_value(); };

    ASSERT_TRUE(loads());
    std::string flipped = good;
    flipped[flipped.size() - 3] ^= 0x40; // payload byte
    writeEntry(flipped);
    EXPECT_FALSE(loads()) << "checksum mismatch";
    EXPECT_FALSE(fs::exists(entry)) << "a bad entry is removed so it gets replaced";

    writeEntry(good.substr(0, good.size() / 2));
    EXPECT_FALSE(loads()) << "truncated";
    writeEntry(good.substr(0, 10));
    EXPECT_FALSE(loads()) << "truncated header";
    writeEntry("not a cache entry at all, just some text of a plausible length............");
    EXPECT_FALSE(loads()) << "foreign file";
    std::string wrongVersion = good;
    wrongVersion[8] = 99;
    writeEntry(wrongVersion);
    EXPECT_FALSE(loads()) << "other format version";

    // An entry for another key under this key's file name (a hash collision).
    ProgramCache other(dir);
    other.store("another key", sample());
    fs::copy_file(other.entryPath("another key"), entry, fs::copy_options::overwrite_existing);
    EXPECT_FALSE(loads()) << "key material differs";

    writeEntry(good);
    EXPECT_TRUE(loads());
}

TEST(ProgramCache, MemoryLruEvictsTheOldest)
{
    ProgramCache cache({}, 2);
    cache.store("a", sample());
    cache.store("b", sample());
    ASSERT_TRUE(cache.find("a")); // a is now the most recent
    cache.store("c", sample());
    EXPECT_TRUE(cache.find("a"));
    EXPECT_FALSE(cache.find("b"));
    EXPECT_TRUE(cache.find("c"));
}

TEST(ProgramCache, CompilerHitMissStaleHeaderAndOptions)
{
    fs::path src = freshDir("compiler_src");
    fs::path cacheDir = freshDir("compiler_cache");
    std::ofstream(src / "header.h") << "#define SCALE 2.0f\n";
    auto cache = std::make_shared<ProgramCache>(cacheDir);
    Compiler compiler(cache);

    auto cold = compiler.compile(request(src));
    ASSERT_TRUE(cold.ok) << cold.log;
    EXPECT_FALSE(cold.cacheHit);
    auto warm = compiler.compile(request(src));
    EXPECT_TRUE(warm.cacheHit);
    expectSame(warm, cold);
    EXPECT_EQ(entryFiles(cacheDir).size(), 1u);

    // A new process (fresh memory) finds the entry on disk.
    Compiler other(std::make_shared<ProgramCache>(cacheDir));
    auto disk = other.compile(request(src));
    EXPECT_TRUE(disk.cacheHit);
    expectSame(disk, cold);

    // The header changed: the cached program is stale.
    std::ofstream(src / "header.h", std::ios::trunc) << "#define SCALE 3.0f\n";
    auto stale = compiler.compile(request(src));
    EXPECT_FALSE(stale.cacheHit);
    ASSERT_TRUE(stale.ok);
    EXPECT_NE(stale.ptx, cold.ptx);
    EXPECT_TRUE(compiler.compile(request(src)).cacheHit);

    // Options, arch and name expressions are part of the key.
    auto req = request(src);
    req.options.defines = {{"X", "1"}};
    EXPECT_FALSE(compiler.compile(req).cacheHit);
    req = request(src);
    req.options.arch = "compute_80";
    EXPECT_FALSE(compiler.compile(req).cacheHit);
    req = request(src);
    req.nameExpressions = {"add"};
    EXPECT_FALSE(compiler.compile(req).cacheHit);
    req = request(src);
    req.options.tagPrintf = false; // no printf in the source: same program, same key
    EXPECT_TRUE(compiler.compile(req).cacheHit);
}

TEST(ProgramCache, CorruptEntryIsRecompiledAndReplaced)
{
    fs::path src = freshDir("replace_src");
    fs::path cacheDir = freshDir("replace_cache");
    std::ofstream(src / "header.h") << "#define SCALE 2.0f\n";
    auto cold = Compiler(std::make_shared<ProgramCache>(cacheDir)).compile(request(src));
    ASSERT_TRUE(cold.ok);
    auto files = entryFiles(cacheDir);
    ASSERT_EQ(files.size(), 1u);
    {
        // Flip a byte in the middle (writing a fixed one is no change where it is already there).
        std::fstream f(files[0], std::ios::in | std::ios::out | std::ios::binary);
        const auto middle = static_cast<std::streamoff>(fs::file_size(files[0]) / 2);
        f.seekg(middle);
        const char old = char(f.get());
        f.seekp(middle);
        f.put(char(~old));
    }
    auto again = Compiler(std::make_shared<ProgramCache>(cacheDir)).compile(request(src));
    EXPECT_FALSE(again.cacheHit);
    ASSERT_TRUE(again.ok);
    EXPECT_EQ(again.ptx, cold.ptx);
    auto third = Compiler(std::make_shared<ProgramCache>(cacheDir)).compile(request(src));
    EXPECT_TRUE(third.cacheHit) << "the recompiled program replaced the corrupt entry";
}

TEST(ProgramCache, FailedCompileIsNotWrittenToDisk)
{
    fs::path cacheDir = freshDir("failed_cache");
    auto cache = std::make_shared<ProgramCache>(cacheDir);
    Compiler compiler(cache);
    CompileRequest req;
    req.source = "__global__ void k() { undefined_here; }\n";
    auto r = compiler.compile(req);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(entryFiles(cacheDir).empty());
    auto again = compiler.compile(req);
    EXPECT_TRUE(again.cacheHit) << "kept in memory for this process";
    EXPECT_EQ(again.diagnostics.size(), r.diagnostics.size());
    EXPECT_FALSE(Compiler(std::make_shared<ProgramCache>(cacheDir)).compile(req).cacheHit);
}

// How long a hit takes is measured by tests/bench/bench_core.cpp.
TEST(ProgramCache, RepeatedCompilesHitFromMemoryAndFromDisk)
{
    fs::path src = freshDir("hits_src");
    fs::path cacheDir = freshDir("hits_cache");
    std::ofstream(src / "header.h") << "#define SCALE 2.0f\n";
    auto cache = std::make_shared<ProgramCache>(cacheDir);
    Compiler compiler(cache);
    const CompileResult cold = compiler.compile(request(src));
    ASSERT_TRUE(cold.ok) << cold.log;
    EXPECT_FALSE(cold.cacheHit);
    auto edited = request(src);
    edited.source += "// edited\n";
    EXPECT_FALSE(compiler.compile(edited).cacheHit) << "a new source is compiled";

    for (int i = 0; i < 5; ++i) {
        const CompileResult r = compiler.compile(request(src));
        ASSERT_TRUE(r.cacheHit);
        EXPECT_EQ(r.ptx, cold.ptx);
    }
    for (int i = 0; i < 3; ++i) {
        Compiler fresh(std::make_shared<ProgramCache>(cacheDir));
        const CompileResult r = fresh.compile(request(src));
        ASSERT_TRUE(r.cacheHit) << "found on disk by a new cache";
        EXPECT_EQ(r.ptx, cold.ptx);
    }
}

TEST(ProgramCache, CompilerIsSafeToShareAcrossThreads)
{
    // Loaded here: a missing NVRTC thrown inside a worker would end the whole executable.
    NvrtcLibrary::instance();
    fs::path cacheDir = freshDir("threads_cache");
    Compiler compiler(std::make_shared<ProgramCache>(cacheDir));
    const int threads = 3;
    std::vector<CompileResult> results(threads * 2);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            for (int round = 0; round < 2; ++round) {
                CompileRequest req;
                req.source = "__global__ void k" + std::to_string(t) + "(int* x) { x[0] = " + std::to_string(t)
                    + "; printf(\"%d\\n\", x[0]); }\n";
                results[static_cast<std::size_t>(t * 2 + round)] = compiler.compile(req);
            }
        });
    }
    for (auto& th : pool)
        th.join();
    for (int t = 0; t < threads; ++t) {
        const auto& first = results[static_cast<std::size_t>(t * 2)];
        const auto& second = results[static_cast<std::size_t>(t * 2 + 1)];
        ASSERT_TRUE(first.ok) << first.log;
        EXPECT_FALSE(first.cacheHit);
        EXPECT_TRUE(second.cacheHit);
        EXPECT_EQ(first.ptx, second.ptx);
        EXPECT_EQ(first.loweredNames.begin()->first, "k" + std::to_string(t));
    }
    EXPECT_EQ(entryFiles(cacheDir).size(), static_cast<std::size_t>(threads));
}

TEST(ProgramCache, DiskStaysUnderItsLimitAndKeepsTheEntriesUsedLast)
{
    fs::path dir = freshDir("limit");
    const CompileResult r = sample();
    std::uintmax_t entrySize = 0;
    {
        ProgramCache probe(dir);
        probe.store("probe", r);
        entrySize = fs::file_size(probe.entryPath("probe"));
        fs::remove(probe.entryPath("probe"));
    }
    // Room for four entries; nine are stored, and "key 0" is used again on the way.
    const std::uintmax_t limit = 4 * entrySize + entrySize / 2;
    ProgramCache cache(dir, 1, limit);
    std::uintmax_t most = 0;
    for (int i = 0; i < 9; ++i) {
        cache.store("key " + std::to_string(i), r);
        std::this_thread::sleep_for(std::chrono::milliseconds(5)); // distinct use times
        if (i >= 1) {
            cache.clearMemory(); // so the find below reads, and touches, the disk entry
            ASSERT_TRUE(cache.find("key 0")) << "the entry in use survives at store " << i;
        }
        std::uintmax_t total = 0;
        for (const auto& f : entryFiles(dir))
            total += fs::file_size(f);
        most = std::max(most, total);
    }
    EXPECT_LE(most, limit);
    EXPECT_TRUE(fs::exists(cache.entryPath("key 8"))) << "the newest entry is kept";
    EXPECT_TRUE(fs::exists(cache.entryPath("key 0"))) << "a used entry is kept";
    EXPECT_FALSE(fs::exists(cache.entryPath("key 1"))) << "the entry used longest ago goes first";
    EXPECT_LT(entryFiles(dir).size(), 9u);
}

namespace {
void setEnvironment(const char* name, const std::string& value)
{
    kw::test::ScopedEnvironment::assign(name, value); // "" removes it on Windows
}
} // namespace

TEST(ProgramCache, DefaultFolderIsTheUsersCacheFolder)
{
    const char* set = std::getenv("KWB_CACHE_DIR");
    const std::string saved = set ? set : "";
    setEnvironment("KWB_CACHE_DIR", ""); // empty counts as unset
#ifdef _WIN32
    const char* local = std::getenv("LOCALAPPDATA");
    ASSERT_TRUE(local && *local) << "Windows sets LOCALAPPDATA";
    const fs::path expected = fs::path(local) / "KernelWorkbench" / "cache" / "programs";
#else
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    ASSERT_TRUE((xdg && *xdg) || (home && *home));
    const fs::path expected
        = (xdg && *xdg ? fs::path(xdg) : fs::path(home) / ".cache") / "kernel-workbench" / "programs";
#endif
    const auto cache = ProgramCache::openDefault();
    setEnvironment("KWB_CACHE_DIR", saved);
    EXPECT_EQ(cache->entryPath("k").parent_path(), expected);
}
