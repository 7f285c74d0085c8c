// Documents run through `ssh -p PORT 127.0.0.1 kwb-run serve` against Debian's sshd,
// started for the test on loopback with keys made in its temporary folder.
#include "LoopbackSshServer.hpp"
#include "RemoteDocuments.hpp"
#include "RemoteTestSupport.hpp"
#include "support/TempDir.hpp"

#include "data/BinaryFile.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DocumentReader.hpp"
#include "serve/ServeClient.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>
#include <map>
#include <random>
#include <thread>

namespace fs = std::filesystem;
using kwtest::LoopbackSshServer;

namespace {

class RemoteSsh : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        dir_ = new fs::path(kw::test::freshDir("kwremote", "ssh"));
        server_ = new LoopbackSshServer(*dir_ / "sshd");
        startError_ = new std::string(server_->start());
    }
    static void TearDownTestSuite()
    {
        kwtest::killProcessesWithEnvironment(remoteCache().string());
        delete server_;
        delete startError_;
        delete dir_;
    }
    void SetUp() override
    {
        // Not a skip: a test of the real server that cannot start it fails and says why.
        ASSERT_TRUE(startError_->empty()) << *startError_;
    }

    static fs::path remoteCache() { return *dir_ / "remote-home-cache"; }
    static fs::path client() { return *dir_ / "client"; }
    // The runner as a user would name it, with the remote side's cache folder set
    // the way a login shell would set XDG_CACHE_HOME.
    static std::string runner(const std::string& config = "ssh_config")
    {
        return server_->sshCommand(config) + " env -u KWB_CACHE_DIR XDG_CACHE_HOME=" + remoteCache().string() + " "
            + kwtest::kwbRunPath() + " serve";
    }

    static fs::path* dir_;
    static LoopbackSshServer* server_;
    static std::string* startError_;
};

fs::path* RemoteSsh::dir_ = nullptr;
LoopbackSshServer* RemoteSsh::server_ = nullptr;
std::string* RemoteSsh::startError_ = nullptr;

kw::HostBytes fileBytes(const fs::path& p)
{
    const std::string s = kwtest::readFile(p);
    kw::HostBytes b(s.size());
    std::memcpy(b.data(), s.data(), s.size());
    return b;
}

const kw::BufferResult& bufferNamed(const kw::RunResult& r, const std::string& name)
{
    for (const auto& b : r.buffers)
        if (b.name == name)
            return b;
    throw std::runtime_error("no buffer " + name);
}

} // namespace

TEST_F(RemoteSsh, FileInitialisedBuffersArriveByteForByteAndOnlyHeadersReachTheRemoteDisk)
{
    const kw::Document doc = kwtest::writeRoundTripDocument(client() / "roundtrip");
    kw::ServeClient ssh(runner());
    bool hasSim = false;
    for (const auto& d : ssh.devices())
        hasSim = hasSim || d.id == "sim";
    ASSERT_TRUE(hasSim);

    const kw::RunResult r = ssh.run(doc, "sim", "all");
    ASSERT_TRUE(r.compile.ok) << (r.compile.diagnostics.empty() ? r.compile.log : r.compile.diagnostics[0].message);
    ASSERT_FALSE(r.fault) << r.fault->message;
    EXPECT_TRUE(r.ok);

    // Inputs as the runner received them, and the outputs the kernel copied from them.
    const fs::path folder = client() / "roundtrip";
    EXPECT_EQ(bufferNamed(r, "a").data.bytes(), fileBytes(folder / "bytes.raw"));
    EXPECT_EQ(bufferNamed(r, "ao").data.bytes(), fileBytes(folder / "bytes.raw"));
    const kw::NdArray floats = kw::BufferFactory::readFile(folder / "floats.npy", kw::DType::F32);
    EXPECT_EQ(bufferNamed(r, "b").data.bytes(), floats.data.bytes());
    const kw::NdArray doubles = kw::BufferFactory::readFile(folder / "doubles.csv", kw::DType::F64);
    EXPECT_EQ(bufferNamed(r, "c").data.bytes(), doubles.data.bytes());
    EXPECT_EQ(bufferNamed(r, "co").data.bytes(), doubles.data.bytes());

    // The initialiser data went in the binary frame, not as JSON numbers.
    const std::size_t n = 8192, payload = n * (1 + 4 + 8);
    EXPECT_GE(ssh.lastJob().sent, payload);
    EXPECT_LT(ssh.lastJob().sent, payload + 16384);
    EXPECT_GE(ssh.lastJob().received, 2 * payload);

    // On the remote side: the job's folder in the remote user's cache, holding the
    // two headers and no data file.
    const fs::path jobs = remoteCache() / "kernel-workbench" / "jobs";
    ASSERT_TRUE(fs::is_directory(jobs));
    int headers = 0, others = 0;
    for (const auto& e : fs::recursive_directory_iterator(jobs))
        if (e.is_regular_file())
            (e.path().extension() == ".cuh" ? headers : others)++;
    EXPECT_EQ(headers, 2);
    EXPECT_EQ(others, 0);
}

// Two raw files of random bytes travel to the runner in one payload and come back as two
// frames; sizes around the reader's chunks and the payload's first allocation, odd ones
// included, must arrive and return byte for byte.
TEST_F(RemoteSsh, RandomBytesOfOddSizesMakeTheRoundTripByteForByte)
{
    const std::vector<std::pair<std::size_t, std::size_t>> sizes
        = {{1, 3}, {65535, 65537}, {(1u << 20) + 7, 13}, {(16u << 20) + 1, (1u << 16) - 1}};
    kw::ServeClient ssh(runner());
    std::mt19937_64 gen(7);
    for (const auto& [na, nb] : sizes) {
        const fs::path folder = client() / ("odd-" + std::to_string(na) + "-" + std::to_string(nb));
        fs::create_directories(folder);
        std::map<std::string, kw::HostBytes> sent;
        for (const auto& [name, n] : {std::pair{std::string("a"), na}, std::pair{std::string("b"), nb}}) {
            kw::HostBytes bytes(n);
            for (auto& b : bytes)
                b = std::byte(gen());
            kw::BinaryFile::writeAll(folder / (name + ".raw"), bytes);
            sent[name] = std::move(bytes);
        }
        const nlohmann::json j = {{"format", "kernel-workbench"},
                                  {"version", 1},
                                  {"title", "odd sizes"},
                                  {"source", "__global__ void keep(unsigned char* a, unsigned char* b) {}\n"},
                                  {"kernel", "keep"},
                                  {"buffers",
                                   {{{"name", "a"},
                                     {"dtype", "u8"},
                                     {"count", std::to_string(na)},
                                     {"init", {{"kind", "file"}, {"path", "a.raw"}}},
                                     {"direction", "inout"}},
                                    {{"name", "b"},
                                     {"dtype", "u8"},
                                     {"count", std::to_string(nb)},
                                     {"init", {{"kind", "file"}, {"path", "b.raw"}}},
                                     {"direction", "inout"}}}},
                                  {"args", {{{"name", "a"}, {"buffer", "a"}}, {{"name", "b"}, {"buffer", "b"}}}},
                                  {"launch", {{"grid", {1, 1, 1}}, {"block", {1, 1, 1}}}},
                                  {"run", {{"warmup", 0}, {"repeats", 0}}}};
        std::ofstream(folder / "odd.kwb") << j.dump();
        const kw::RunResult r = ssh.run(kw::DocumentReader::readFile(folder / "odd.kwb"), "sim");
        ASSERT_TRUE(r.ok) << na << "+" << nb << ": " << (r.fault ? r.fault->message : r.compile.log);
        EXPECT_EQ(bufferNamed(r, "a").data.bytes(), sent["a"]) << na << " bytes";
        EXPECT_EQ(bufferNamed(r, "b").data.bytes(), sent["b"]) << nb << " bytes";
        EXPECT_GE(ssh.lastJob().sent, na + nb);
        EXPECT_GE(ssh.lastJob().received, na + nb);
    }
}

TEST_F(RemoteSsh, CommandLineRunnerWritesOutputsAndSaysTheBytesMoved)
{
    kwtest::writeRoundTripDocument(client() / "cli");
    const fs::path out = client() / "cli-out";
    const kwtest::Shell run
        = kwtest::shell(kwtest::kwbRunPath() + " run " + (client() / "cli" / "roundtrip.kwb").string()
                        + " --device sim --out " + out.string() + " --runner '" + runner() + "'");
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("check    bo = 2 * b: passed"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("sent 1"), std::string::npos) << run.output; // 104 KiB of initialiser data
    EXPECT_NE(run.output.find("received"), std::string::npos) << run.output;
    const kw::NdArray co = kw::BufferFactory::readFile(out / "co.npy", kw::DType::F64);
    EXPECT_EQ(co.data.bytes(),
              kw::BufferFactory::readFile(client() / "cli" / "doubles.csv", kw::DType::F64).data.bytes());
}

TEST_F(RemoteSsh, ADroppedConnectionLosesTheJobInFlightAndTheNextConnectionWorks)
{
    const kw::Document slow = kwtest::writeSlowDocument(client() / "slow");
    const kw::Document doc = kwtest::writeRoundTripDocument(client() / "again");
    std::string message;
    std::thread cutter;
    {
        kw::ServeClient ssh(runner());
        try {
            ssh.run(slow, "sim", "outputs", [&](const std::string& stage) {
                if (stage == "launch" && !cutter.joinable())
                    cutter = std::thread([] {
                        std::this_thread::sleep_for(std::chrono::milliseconds(500));
                        server_->killSessions();
                    });
            });
            ADD_FAILURE() << "the run finished although its connection was cut";
        } catch (const kw::Error& e) {
            message = e.what();
        }
    }
    if (cutter.joinable())
        cutter.join();
    EXPECT_NE(message.find("the job in flight is lost"), std::string::npos) << message;
    EXPECT_NE(message.find("127.0.0.1"), std::string::npos) << message; // names the runner
    // The orphaned runner on the far side still spins on the old kernel; end it.
    kwtest::killProcessesWithEnvironment(remoteCache().string());

    kw::ServeClient again(runner());
    const kw::RunResult r = again.run(doc, "sim");
    EXPECT_TRUE(r.ok);
}

TEST_F(RemoteSsh, AnUnknownHostKeyOrAPasswordPromptEndsWithAClearMessage)
{
    try {
        kw::ServeClient ssh(runner("ssh_config_unknown_host"));
        ADD_FAILURE() << "connected to a host whose key is not known";
    } catch (const kw::Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("does not know this host's key"), std::string::npos) << m;
        EXPECT_NE(m.find("Host key verification failed"), std::string::npos) << m;
    }
    try {
        kw::ServeClient ssh(runner("ssh_config_no_key"));
        ADD_FAILURE() << "logged in with a key the server does not know";
    } catch (const kw::Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("without asking for a password"), std::string::npos) << m;
    }
}
