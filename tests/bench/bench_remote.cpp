// Remote runners on this machine: the latency a loopback SSH hop adds per job,
// the throughput of a 256 MiB buffer round trip over SSH against `ssh cat` of the same
// bytes in the same run (the link's own speed; the target is at least 200 MiB/s or 0.8
// of it), and the time from srun to the first result on a one-node Slurm cluster.
// Starts the same real servers as the `remote` tests (sshd on loopback,
// munged/slurmctld/slurmd).
//   bench_remote [jobs=20] [mib=256] [rounds=2]
#include "LoopbackSshServer.hpp"
#include "OneNodeSlurmCluster.hpp"
#include "RemoteTestSupport.hpp"
#include "support/TempDir.hpp"

#include "compile/Compiler.hpp"
#include "compile/ProgramCache.hpp"
#include "doc/DocumentReader.hpp"
#include "run/DeviceSelector.hpp"
#include "run/RunEngine.hpp"
#include "serve/RunnerProcess.hpp"
#include "serve/ServeClient.hpp"
#include "util/FileDescriptor.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

kw::Document tinyDocument(const fs::path& dir)
{
    fs::create_directories(dir);
    const nlohmann::json doc = {
        {"format", "kernel-workbench"},
        {"version", 1},
        {"title", "tiny"},
        {"source", "__global__ void inc(float* a) { a[threadIdx.x] += 1.0f; }\n"},
        {"kernel", "inc"},
        {"buffers",
         {{{"name", "a"}, {"dtype", "f32"}, {"count", "32"}, {"init", {{"kind", "zeros"}}}, {"direction", "inout"}}}},
        {"args", {{{"name", "a"}, {"buffer", "a"}}}},
        {"launch", {{"grid", {1, 1, 1}}, {"block", {32, 1, 1}}}},
        {"run", {{"warmup", 0}, {"repeats", 0}}}};
    std::ofstream(dir / "tiny.kwb") << doc.dump();
    return kw::DocumentReader::readFile(dir / "tiny.kwb");
}

// Random bytes: nothing on the way can compress them.
std::vector<char> randomBytes(std::size_t n)
{
    std::vector<char> bytes(n);
    std::mt19937_64 gen(42);
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
        const std::uint64_t v = gen();
        std::memcpy(bytes.data() + i, &v, 8);
    }
    return bytes;
}

// One inout u8 buffer of `mib` MiB of random bytes from a raw file; the kernel touches one byte.
kw::Document bigDocument(const fs::path& dir, std::size_t mib)
{
    fs::create_directories(dir);
    const std::vector<char> bytes = randomBytes(mib << 20);
    std::ofstream(dir / "big.raw", std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    const nlohmann::json doc = {{"format", "kernel-workbench"},
                                {"version", 1},
                                {"title", "big"},
                                {"source", "__global__ void touch(unsigned char* a) { a[0] += 1; }\n"},
                                {"kernel", "touch"},
                                {"buffers",
                                 {{{"name", "a"},
                                   {"dtype", "u8"},
                                   {"count", std::to_string(bytes.size())},
                                   {"init", {{"kind", "file"}, {"path", "big.raw"}}},
                                   {"direction", "inout"}}}},
                                {"args", {{{"name", "a"}, {"buffer", "a"}}}},
                                {"launch", {{"grid", {1, 1, 1}}, {"block", {1, 1, 1}}}},
                                {"run", {{"warmup", 0}, {"repeats", 0}}}};
    std::ofstream(dir / "big.kwb") << doc.dump();
    return kw::DocumentReader::readFile(dir / "big.kwb");
}

// A row whose runs failed measured nothing: it is reported as failed and the benchmark
// exits non-zero, rather than printing a time.
int failedRows = 0;

bool succeeded(const kw::RunResult& r, const std::string& row)
{
    if (r.ok)
        return true;
    ++failedRows;
    fmt::print(stderr, "FAILED: {}: the run did not succeed{}\n", row, r.fault ? ": " + r.fault->message : "");
    return false;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

std::vector<double> jobTimes(kw::ServeClient& client, const kw::Document& doc, int jobs)
{
    if (!succeeded(client.run(doc, "sim"), "latency warm-up")) // warm: compile cache, process start
        return {};
    std::vector<double> t;
    for (int i = 0; i < jobs; ++i) {
        const auto t0 = Clock::now();
        const kw::RunResult r = client.run(doc, "sim");
        const double ms = msSince(t0);
        if (succeeded(r, "latency per job"))
            t.push_back(ms);
    }
    return t;
}

// The link's own speed: `bytes` through `ssh ... cat` and back, written and read at once
// as the runner's traffic is. Milliseconds, or a negative number when the bytes did not
// come back whole and equal.
double sshCatRoundTrip(const std::string& sshCommand, const std::vector<char>& bytes)
{
    kw::RunnerProcess cat(sshCommand + " cat");
    const auto t0 = Clock::now();
    std::thread writer([&] {
        std::size_t done = 0;
        while (done < bytes.size()) {
            const long n = kw::fd::write(cat.inputFd(), bytes.data() + done,
                                         std::min<std::size_t>(bytes.size() - done, 1 << 20));
            if (n <= 0)
                break;
            done += std::size_t(n);
        }
        cat.closeInput();
    });
    std::vector<char> back(bytes.size());
    std::size_t got = 0;
    while (got < back.size()) {
        const long n = kw::fd::read(cat.outputFd(), back.data() + got, back.size() - got);
        if (n <= 0)
            break;
        got += std::size_t(n);
    }
    const double ms = msSince(t0);
    writer.join();
    cat.wait();
    return got == bytes.size() && back == bytes ? ms : -1;
}

} // namespace

int main(int argc, char** argv)
{
    const int jobs = argc > 1 ? std::atoi(argv[1]) : 20;
    const std::size_t mib = argc > 2 ? std::size_t(std::atoi(argv[2])) : 256;
    const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 2;
    const fs::path dir = kw::test::freshDir("kwbench", "remote");
    const std::string cache = "env -u KWB_CACHE_DIR XDG_CACHE_HOME=" + (dir / "remote-cache").string() + " ";
    const std::string local = kwtest::kwbRunPath() + " serve";

    kwtest::LoopbackSshServer sshd(dir / "sshd");
    if (const std::string e = sshd.start(); !e.empty()) {
        fmt::print(stderr, "sshd: {}\n", e);
        return 1;
    }
    const std::string ssh = sshd.sshCommand() + " " + cache + local;
    const kw::Document tiny = tinyDocument(dir / "tiny");

    {
        // Interleaved, so both see the same load on a shared machine.
        kw::ServeClient here(local), there(ssh);
        std::vector<double> l, s;
        for (int round = 0; round < 5; ++round) {
            const auto a = jobTimes(here, tiny, jobs / 5 + 1), b = jobTimes(there, tiny, jobs / 5 + 1);
            l.insert(l.end(), a.begin(), a.end());
            s.insert(s.end(), b.begin(), b.end());
        }
        fmt::print("latency per job (tiny sim job, median of {}): local runner {:.2f} ms, loopback ssh {:.2f} ms, "
                   "added {:.2f} ms\n",
                   l.size(), median(l), median(s), median(s) - median(l));
    }
    {
        const kw::Document big = bigDocument(dir / "big", mib);
        {
            // The same job in this process: what the engine itself costs, without a runner.
            kw::Compiler compiler(kw::ProgramCache::openDefault());
            auto backend = kw::DeviceSelector::open(kw::DeviceSelector::parse("sim"), nullptr);
            kw::RunEngine engine(compiler, *backend);
            const auto t0 = Clock::now();
            const kw::RunResult r = engine.run(kw::DocumentReader::readFile(dir / "big" / "big.kwb"));
            if (succeeded(r, "job in process"))
                fmt::print("{} MiB job in process (no runner): {:.0f} ms\n", mib, msSince(t0));
        }
        // Rounds alternate the runner's round trip with `ssh cat` of the same bytes (both
        // ways at once, as the runner's are), so both see the same load; the best of each.
        const std::vector<char> same = randomBytes(mib << 20);
        std::map<std::string, double> best;
        for (int round = 0; round < rounds; ++round) {
            for (const auto& [label, command] :
                 {std::pair{"local runner (pipe)", local}, std::pair{"loopback ssh", ssh}}) {
                kw::ServeClient client(command);
                // Where the time goes: the request until the runner's first stage (sending
                // and decoding it), the runner's work, and the buffer's way back.
                std::map<std::string, double> stageAt;
                const auto t0 = Clock::now();
                const kw::RunResult r = client.run(
                    big, "sim", "outputs", [&](const std::string& stage) { stageAt.try_emplace(stage, msSince(t0)); });
                const double ms = msSince(t0);
                const double moved = double(client.lastJob().sent + client.lastJob().received) / (1 << 20);
                if (!succeeded(r, std::string("round trip, ") + label))
                    continue;
                best[label] = best.count(label) ? std::min(best[label], ms) : ms;
                fmt::print("{} MiB round trip, {}: {:.0f} ms, sent {:.1f} MiB, received {:.1f} MiB, {:.0f} MiB/s\n",
                           mib, label, ms, double(client.lastJob().sent) / (1 << 20),
                           double(client.lastJob().received) / (1 << 20), moved / (ms / 1000));
                if (stageAt.count("compile") && stageAt.count("download"))
                    fmt::print("  request sent and decoded {:.0f} ms, runner's work {:.0f} ms, buffer back {:.0f} ms\n",
                               stageAt["compile"], stageAt["download"] - stageAt["compile"], ms - stageAt["download"]);
            }
            for (const auto& [label, options] :
                 {std::pair{"ssh cat", ""}, std::pair{"ssh -C cat", " -o Compression=yes"}}) {
                const double ms = sshCatRoundTrip(sshd.sshCommand() + options, same);
                if (ms < 0) {
                    ++failedRows;
                    fmt::print(stderr, "FAILED: {}: the bytes did not come back whole\n", label);
                    continue;
                }
                best[label] = best.count(label) ? std::min(best[label], ms) : ms;
                fmt::print("{} MiB round trip, {} (the link alone, random bytes): {:.0f} ms, {:.0f} MiB/s\n", mib,
                           label, ms, 2.0 * double(mib) / (ms / 1000));
            }
        }
        if (best.count("loopback ssh") && best.count("ssh cat")) {
            const double runner = 2.0 * double(mib) / (best["loopback ssh"] / 1000);
            const double link = 2.0 * double(mib) / (best["ssh cat"] / 1000);
            const bool met = runner >= 200 || runner >= 0.8 * link;
            fmt::print("round trip over ssh, best of {}: runner {:.0f} MiB/s, ssh cat {:.0f} MiB/s, ratio {:.2f}; "
                       "target >= 200 MiB/s or >= 0.8 of ssh cat: {}\n",
                       rounds, runner, link, runner / link, met ? "met" : "missed");
        }
        fs::remove(dir / "big" / "big.raw");
    }
    sshd.stop();

    kwtest::OneNodeSlurmCluster slurm(dir / "slurm");
    if (const std::string e = slurm.start(); !e.empty()) {
        fmt::print(stderr, "slurm: {}\n", e);
        return 1;
    }
    const std::string srun = "srun --quiet --ntasks=1 --time=5 " + cache + local;
    std::vector<double> first;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = Clock::now();
        kw::ServeClient client(srun);
        const double hello = msSince(t0);
        if (succeeded(client.run(tiny, "sim"), "srun to first result"))
            first.push_back(msSince(t0));
        if (i == 0)
            fmt::print("srun: first hello after {:.0f} ms\n", hello);
    }
    if (!first.empty())
        fmt::print("srun to first result (tiny sim job, median of {}): {:.0f} ms (min {:.0f} ms)\n", first.size(),
                   median(first), *std::min_element(first.begin(), first.end()));
    if (failedRows)
        fmt::print(stderr, "bench_remote: {} runs failed; their rows measured nothing\n", failedRows);
    return failedRows ? 1 : 0;
}
